/**
 * "Did you mean" for a mistyped command or option: the known names nearest to what was typed,
 * by edit distance counting a swap of two neighbours as one edit (`ulr` for `url` is one slip of
 * the fingers, not two).
 */
export function didYouMean(given: string, known: readonly string[], prefix = ""): string {
  const near = nearestNames(given, known);
  return near.length > 0 ? ` (did you mean ${near.map((n) => `${prefix}${n}`).join(" or ")}?)` : "";
}

/** The known names at the smallest distance from `given`, if that distance is small for its length. */
export function nearestNames(given: string, known: readonly string[]): string[] {
  // One edit per three characters: `conformace` finds `conformance`, `--x` finds nothing.
  const allowed = Math.max(1, Math.floor(given.length / 3));
  let best = allowed + 1;
  let names: string[] = [];
  for (const name of known) {
    const d = editDistance(given.toLowerCase(), name.toLowerCase());
    if (d < best) [best, names] = [d, [name]];
    else if (d === best) names.push(name);
  }
  return names;
}

/** Optimal-string-alignment distance: insertions, deletions, substitutions and adjacent swaps. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? 0;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] ?? [];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(at(i, j), at(i - 2, j - 2) + 1);
    }
  }
  return at(a.length, b.length);
}
