import type { Exchange } from "../types.ts";

/** Single-quotes a shell word. */
export const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A curl line that sends the same request (with the source address when it matters). */
export function curlLine(
  exchange: Pick<Exchange, "url" | "request" | "localAddress">,
  withInterface = false,
): string {
  const parts = ["curl -i"];
  if (exchange.request.method !== "GET") parts.push(`-X ${exchange.request.method}`);
  for (const [name, value] of Object.entries(exchange.request.headers))
    parts.push(`-H ${quote(`${name}: ${value}`)}`);
  if (withInterface && exchange.localAddress) parts.push(`--interface ${exchange.localAddress}`);
  parts.push(quote(exchange.url));
  return parts.join(" ");
}
