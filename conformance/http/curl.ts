import type { Exchange } from "../types.ts";
import { ORIGIN } from "./client-headers.ts";
import { wireLine } from "./raw-request.ts";

/** Single-quotes a shell word. */
export const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * A curl line that sends the same request (with the source address when it matters). The
 * account's real key never appears: reports are published (JUnit annotations, job summaries,
 * artifacts), so a request with valid credentials reads the key from $DEALKIT_API_KEY, the
 * variable `dealkit conformance` itself takes it from. Invalid keys are the suite's own inventions
 * and are printed, so the line still sends exactly what the run sent.
 */
export function curlLine(
  exchange: Pick<Exchange, "url" | "request" | "localAddress">,
  withInterface = false,
): string {
  // What curl will not send (a head of an exact size, no Host, a line that is no field) goes raw.
  if (exchange.request.wire) return wireLine(exchange);
  const parts = ["curl -i"];
  if (exchange.request.method !== "GET") parts.push(`-X ${exchange.request.method}`);
  // With the codings a browser offers, curl must also undo them to show the body.
  if (Object.keys(exchange.request.headers).some((h) => h.toLowerCase() === "accept-encoding"))
    parts.push("--compressed");
  for (const [name, value] of Object.entries(exchange.request.headers)) {
    const secret = name.toLowerCase() === "x-api-key" && exchange.request.credentials === "valid";
    parts.push(secret ? `-H "${name}: $DEALKIT_API_KEY"` : `-H ${quote(`${name}: ${value}`)}`);
  }
  if (withInterface && exchange.localAddress) parts.push(`--interface ${exchange.localAddress}`);
  parts.push(quote(exchange.url));
  return parts.join(" ");
}

const BURST_PHASES = new Set(["burst", "over-limit", "wait"]);

/**
 * For a request the 429 burst sent: a script that brings the client where the run had brought it
 * (its rate window filled, and for a request of the wait, refused and waiting), then the request.
 * Undefined for any other request: its curl line alone reproduces it.
 */
export function reproduceScript(
  exchange: Pick<
    Exchange,
    "url" | "request" | "localAddress" | "phase" | "windowIndex" | "preflightsBefore" | "waited"
  >,
  baseUrl: string,
): string | undefined {
  if (!exchange.phase || !BURST_PHASES.has(exchange.phase)) return undefined;
  const fill = Math.max(0, exchange.windowIndex ?? 0);
  const preflights = exchange.preflightsBefore ?? 0;
  const iface = exchange.localAddress ? ` --interface ${exchange.localAddress}` : "";
  const meta = quote(`${baseUrl.replace(/\/$/, "")}/api/v1/meta`);
  const preflight = `curl -s -o /dev/null${iface} -X OPTIONS -H ${quote(`origin: ${ORIGIN}`)} -H 'access-control-request-method: GET' ${meta}`;
  const lines = [
    windowComment(fill, preflights),
    ...times(fill, `curl -s -o /dev/null${iface} ${meta}`),
    ...times(preflights, preflight),
  ];
  if (exchange.waited !== undefined) {
    lines.push(`curl -s -o /dev/null${iface} ${meta}  # refused: over the limit`, `sleep ${exchange.waited}`);
  }
  lines.push(curlLine(exchange, true));
  return lines.join("\n");
}

/** The script's first line: what the client address had sent in its rate window before the request. */
function windowComment(fill: number, preflights: number): string {
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (fill === 0 && preflights === 0)
    return "# the request that showed the finding, the first of one client address's rate window";
  const sent = [
    ...(fill > 0 ? [count(fill, "request")] : []),
    ...(preflights > 0 ? [`the ${count(preflights, "preflight")} the run sent`] : []),
  ];
  return `# ${sent.join(" and ")} from one client address in its rate window, then the request that showed the finding`;
}

/** A shell line run `count` times: a loop only when it repeats (`seq 1 0` would loop zero times, a no-op a reader has to decode). */
function times(count: number, line: string): string[] {
  if (count <= 0) return [];
  return count === 1 ? [line] : [`for i in $(seq 1 ${count}); do ${line}; done`];
}
