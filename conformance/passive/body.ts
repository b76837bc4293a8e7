/**
 * A copy of a body as it streams past, up to a cap: the proxy forwards every chunk at once and
 * keeps at most `cap` bytes for judging; past the cap it drops the copy (memory stays bounded by
 * the cap per exchange in flight) and the exchange is "not judged: body over N bytes".
 */
import type { TransportFailure } from "../http/client.ts";
import { decodeContent } from "../http/decode.ts";

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

/** The body as text, or why it was not kept, or (x-compression) why it does not decode. */
export type Decoded = { text: string } | { notKept: string } | { failure: TransportFailure };

/**
 * The body as text, its content-encoding undone within the same cap (a small compressed body may
 * expand far beyond it). A body that does not decode is a finding (content-encoding), not a skip.
 */
export function decodeBody(tap: BodyTap, contentEncoding: string | undefined): Decoded {
  if (tap.over) return { notKept: `body over ${tap.cap} bytes` };
  const decoded = decodeContent(tap.buffer(), contentEncoding, tap.cap);
  if (!("failure" in decoded)) return { text: decoded.body.toString("utf8") };
  if (decoded.failure.kind === "too-large") return { notKept: decoded.failure.message };
  return { failure: decoded.failure };
}
