/**
 * A copy of a body as it streams past, up to a cap: the proxy forwards every chunk at once and
 * keeps at most `cap` bytes for judging; past the cap it drops the copy (memory stays bounded by
 * the cap per exchange in flight) and the exchange is "not judged: body over N bytes".
 */
import zlib from "node:zlib";

export class BodyTap {
  private chunks: Buffer[] = [];
  private kept = 0;
  /** Bytes seen in all, kept or not. */
  bytes = 0;
  /** Most bytes ever held at once (the memory bound tests read). */
  highWater = 0;
  over = false;

  constructor(readonly cap: number) {}

  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.over) return;
    if (this.kept + chunk.length > this.cap) {
      this.over = true;
      this.chunks = [];
      this.kept = 0;
      return;
    }
    this.chunks.push(chunk);
    this.kept += chunk.length;
    this.highWater = Math.max(this.highWater, this.kept);
  }

  /** The bytes kept (empty once over the cap). */
  buffer(): Buffer {
    return Buffer.concat(this.chunks, this.kept);
  }

  /** Drops the copy (judged, or not needed). */
  release(): void {
    this.chunks = [];
    this.kept = 0;
  }
}

/** Why a kept body cannot be judged, or its text. */
export type Decoded = { text: string } | { notKept: string };

const DECODERS: Record<string, (buf: Buffer, options: zlib.ZlibOptions) => Buffer> = {
  gzip: zlib.gunzipSync,
  "x-gzip": zlib.gunzipSync,
  deflate: zlib.inflateSync,
  br: zlib.brotliDecompressSync,
};

/**
 * The body as text, its content-encoding undone within the same cap (a small compressed body may
 * expand far beyond it). An encoding the proxy cannot undo leaves the exchange not judged.
 */
export function decodeBody(tap: BodyTap, contentEncoding: string | undefined): Decoded {
  if (tap.over) return { notKept: `body over ${tap.cap} bytes` };
  let body = tap.buffer();
  const codings = (contentEncoding ?? "")
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== "identity")
    .reverse();
  for (const coding of codings) {
    const decode = DECODERS[coding];
    if (!decode) return { notKept: `content-encoding ${coding} not decoded` };
    try {
      body = decode(body, { maxOutputLength: tap.cap });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return {
        notKept:
          code === "ERR_BUFFER_TOO_LARGE"
            ? `body over ${tap.cap} bytes once decoded (${coding})`
            : `${coding} body could not be decoded`,
      };
    }
  }
  return { text: body.toString("utf8") };
}
