/**
 * Input that is not what it claims: a file that is not a spec, a ledger that is not one, a
 * list without the keys its entries need. It is refused, never judged: the CLI prints the
 * message (which names the input and the reason) and exits 2. Readers throw a subclass of
 * their own so a caller can still tell them apart.
 */
export class InputError extends Error {}
