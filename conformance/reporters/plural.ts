/** A count and its noun, the noun plural unless the count is one: "1 check", "9 checks". */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
