/**
 * Headers as the proxy passes them: raw (name, value, name, value…), case, order and repeats
 * kept, the hop-by-hop ones (RFC 9110 7.6.1) left to each side's own connection.
 */
import { classify, type TransportFailure } from "../http/client.ts";

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** Raw headers without the hop-by-hop ones (those `Connection` names included). */
export function endToEnd(raw: string[]): string[] {
  const named = new Set(HOP_BY_HOP);
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]?.toLowerCase() === "connection")
      for (const token of (raw[i + 1] ?? "").split(",")) named.add(token.trim().toLowerCase());
  return withoutHeaders(raw, named);
}

/** Raw headers without those named (lower-case names). */
export function withoutHeaders(raw: string[], names: Set<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (!names.has(name.toLowerCase())) out.push(name, raw[i + 1] as string);
  }
  return out;
}

/** Header names lower-cased, repeated headers joined (as the suite's client reads them). */
export function headerRecord(raw: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = raw[i + 1] as string;
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
  }
  return out;
}

/**
 * A socket or parser error of the upstream as the failure answers-complete judges, sorted as the
 * suite's own client sorts it; once headers came the upstream was reached, so it is a reset.
 */
export function failureOf(err: NodeJS.ErrnoException, afterHeaders: boolean): TransportFailure {
  const kind = classify(err);
  return {
    kind: afterHeaders && kind === "unreachable" ? "reset" : kind,
    message: err.message || "connection closed",
  };
}
