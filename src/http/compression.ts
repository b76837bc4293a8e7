import { promisify } from "node:util";
import zlib from "node:zlib";

/**
 * Content-coding negotiation (RFC 9110 §12.5.3) for the codings x-compression allows: the coding
 * the request's Accept-Encoding prefers (highest q, then the server's order), or undefined for
 * the body as it is. A request without Accept-Encoding gets no coding (x-compression: scripts and
 * curl without --compressed cannot decode one), although RFC 9110 would allow any.
 */
export function negotiateCoding(acceptEncoding: string | undefined, codings: string[]): string | undefined {
  if (!acceptEncoding) return undefined;
  const weights = acceptedCodings(acceptEncoding);
  let best: string | undefined;
  let bestWeight = 0;
  for (const coding of codings) {
    const weight = weights.get(coding) ?? weights.get("*") ?? 0;
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}

/** The codings an Accept-Encoding value names, with their weights (q; 1 when not given; 0 refuses). */
export function acceptedCodings(acceptEncoding: string | undefined): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of (acceptEncoding ?? "").split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    if (!name.trim()) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    weights.set(codingName(name.trim()), Number.isFinite(weight) ? weight : 0);
  }
  return weights;
}

/** x-gzip is gzip's old name (RFC 9110 §8.4.1.3). */
const codingName = (name: string) => (name === "x-gzip" ? "gzip" : name);

/** The codings a Content-Encoding value names, in the order they were applied (identity dropped). */
export function appliedCodings(contentEncoding: string | undefined): string[] {
  return (contentEncoding ?? "")
    .split(",")
    .map((c) => codingName(c.trim().toLowerCase()))
    .filter((c) => c !== "" && c !== "identity");
}

/** Whether a Vary value covers `header` (`*` covers every header). */
export function varies(vary: string | undefined, header: string): boolean {
  const names = (vary ?? "").split(",").map((v) => v.trim().toLowerCase());
  return names.includes("*") || names.includes(header.toLowerCase());
}

/** Answers shorter than this are sent as they are: compressing them saves less than it costs. */
export const COMPRESS_FROM_BYTES = 1024;

/** The server's preference among equally wanted codings: the smallest output first. */
const PREFERENCE = ["br", "gzip", "deflate"];

export const ENCODERS: Record<string, (body: Buffer) => Promise<Buffer>> = {
  // Quality 4: near gzip's speed with brotli's ratio (11, the default, is for static files).
  br: promisify((b: Buffer, cb: zlib.CompressCallback) =>
    zlib.brotliCompress(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }, cb),
  ),
  gzip: promisify((b: Buffer, cb: zlib.CompressCallback) => zlib.gzip(b, cb)),
  deflate: promisify((b: Buffer, cb: zlib.CompressCallback) => zlib.deflate(b, cb)),
};

/**
 * The body as the request's Accept-Encoding lets it travel (x-compression), with the headers that
 * go with it: Content-Encoding for the coding used, and Vary: Accept-Encoding on every answer large
 * enough to be compressed, so a cache keeps the identity and compressed forms apart.
 */
export async function encodeBody(
  body: Buffer,
  acceptEncoding: string | undefined,
  policy: { codings: string[]; vary: string },
): Promise<{ body: Buffer; headers: Record<string, string> }> {
  if (body.length < COMPRESS_FROM_BYTES) return { body, headers: {} };
  const offered = PREFERENCE.filter((c) => policy.codings.includes(c) && ENCODERS[c]);
  const coding = negotiateCoding(acceptEncoding, offered);
  const encode = coding ? ENCODERS[coding] : undefined;
  if (!coding || !encode) return { body, headers: { vary: policy.vary } };
  return { body: await encode(body), headers: { "content-encoding": coding, vary: policy.vary } };
}
