/**
 * Undoes an answer's Content-Encoding, the way a browser or fetch does, within a byte cap (a small
 * compressed body may expand far beyond it). A body that does not decode, decodes to a body still
 * compressed (compressed twice under one label), or names a coding nobody can undo is an outcome
 * to judge (x-compression), never an exception.
 */
import zlib from "node:zlib";
import { appliedCodings } from "../../src/http/compression.ts";

export type Decoded = { body: Buffer } | { failure: { kind: "too-large" | "undecodable"; message: string } };

const inflate = (buf: Buffer, options: zlib.ZlibOptions) => {
  try {
    return zlib.inflateSync(buf, options);
  } catch (err) {
    // RFC 9110's deflate is the zlib format; some servers send raw deflate, which clients accept too.
    if ((err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") throw err;
    return zlib.inflateRawSync(buf, options);
  }
};

const DECODERS: Record<string, (buf: Buffer, options: zlib.ZlibOptions) => Buffer> = {
  gzip: zlib.gunzipSync,
  deflate: inflate,
  br: zlib.brotliDecompressSync,
};

/** gzip's magic bytes: a body that still starts with them after decoding was compressed twice. */
const GZIP_MAGIC = [0x1f, 0x8b];

export function decodeContent(raw: Buffer, contentEncoding: string | undefined, maxBytes: number): Decoded {
  const codings = appliedCodings(contentEncoding);
  // An empty body (HEAD, 204) has nothing to decode, whatever the label says.
  if (codings.length === 0 || raw.length === 0) return { body: raw };
  let body = raw;
  for (const coding of [...codings].reverse()) {
    const decode = DECODERS[coding];
    if (!decode)
      return {
        failure: { kind: "undecodable", message: `content-encoding ${coding} is not one a client can undo` },
      };
    try {
      body = decode(body, { maxOutputLength: maxBytes });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (e.code === "ERR_BUFFER_TOO_LARGE")
        return {
          failure: { kind: "too-large", message: `body over ${maxBytes} bytes once decoded (${coding})` },
        };
      return {
        failure: { kind: "undecodable", message: `the ${coding} body does not decode: ${e.message}` },
      };
    }
  }
  if (body[0] === GZIP_MAGIC[0] && body[1] === GZIP_MAGIC[1])
    return {
      failure: {
        kind: "undecodable",
        message: `the body decoded with ${codings.join(", ")} is still gzip-compressed: compressed twice under one label`,
      },
    };
  return { body };
}
