/**
 * `text` in V8's one-byte form when every character fits in one byte (header lines always do),
 * else `text` itself.
 *
 * Why: V8 keeps text cut out of a source that holds any wider character in two bytes per
 * character, and the spec's YAML holds Chinese labels. Its keys are internalized that way, and
 * a literal in our code equal to one of them ("RateLimit-Limit", "Accept-Encoding") is then that
 * very two-byte string. Given a two-byte header name or value, Node lower-cases the name through
 * ICU, runs its header checks over two-byte text and builds the whole header block in two bytes
 * per character, to write it out as Latin-1 again: on every answer, a cost that bare node:http,
 * whose header strings are one-byte, does not pay (bench/README.md, finding 11). A copy decoded
 * from bytes is a new one-byte string, not internalized, so it stays one-byte.
 */
export function oneByte(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the whole one-byte range
  return /^[\x00-\xff]*$/.test(text) ? Buffer.from(text, "latin1").toString("latin1") : text;
}
