/**
 * How the kit prints an expected failure: one line, no stack (a terminal or a log line an
 * operator acts on), and the stack only when asked for with DEALKIT_DEBUG=1.
 */

/**
 * An error's message as one line: its first line (what follows is detail, sometimes a copy of
 * the input, which must not reach a terminal), white space folded, at most `max` characters.
 */
export function oneLine(err: unknown, max = 300): string {
  const text = err instanceof Error ? err.message || err.name : String(err);
  const line = (text.trim().split("\n")[0] ?? "").replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max)}...` : line;
}

/** What follows the line of an unexpected error: its stack with DEALKIT_DEBUG set (not "0"), else how to get it. */
export function debugHint(err: unknown): string {
  const debug = process.env.DEALKIT_DEBUG;
  if (debug && debug !== "0") return `\n${err instanceof Error ? err.stack : String(err)}`;
  return " (DEALKIT_DEBUG=1 shows the stack)";
}
