/**
 * A copy of a body as it streams past, up to a cap: the proxy forwards every chunk at once and
 * keeps at most `cap` bytes for judging; past the cap it drops the copy (memory stays bounded by
 * the cap per exchange in flight) and the exchange is "not judged: body over N bytes".
 */
import type { TransportFailure } from "../http/client.ts";
import { decodeContent } from "../http/decode.ts";
import type { Traffic } from "./traffic.ts";

/**
 * The body as the proxy hands it to the judge: the bytes kept, in an ArrayBuffer of their own
 * (never a slice of Node's shared Buffer pool) so that it moves to the judging worker without a
 * copy, or why none were kept. It is decoded to text where it is judged: the forwarding thread
 * makes no string of it.
 */
export type KeptBody =
  | { bytes: Uint8Array<ArrayBuffer>; cap: number; contentEncoding?: string }
  | { notKept: string };

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

  /** The copy as a KeptBody (its bytes in a buffer of their own), and the tap let go of it. */
  take(contentEncoding: string | undefined): KeptBody {
    if (this.over) return { notKept: `body over ${this.cap} bytes` };
    const bytes = new Uint8Array(this.kept);
    let at = 0;
    for (const c of this.chunks) {
      bytes.set(c, at);
      at += c.length;
    }
    this.release();
    return { bytes, cap: this.cap, ...(contentEncoding !== undefined ? { contentEncoding } : {}) };
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
export function decodeKept(kept: KeptBody): Decoded {
  if ("notKept" in kept) return kept;
  const raw = Buffer.from(kept.bytes.buffer, kept.bytes.byteOffset, kept.bytes.byteLength);
  const decoded = decodeContent(raw, kept.contentEncoding, kept.cap);
  if (!("failure" in decoded)) return { text: decoded.body.toString("utf8") };
  if (decoded.failure.kind === "too-large") return { notKept: decoded.failure.message };
  return { failure: decoded.failure };
}

/** decodeKept of what a tap holds (the tap keeps nothing after). */
export function decodeBody(tap: BodyTap, contentEncoding: string | undefined): Decoded {
  return decodeKept(tap.take(contentEncoding));
}

/**
 * An exchange as the proxy hands it over once complete: everything but the body, which is still
 * the bytes kept (`kept`), or absent when no answer came.
 */
export type TrafficBytes = Omit<Traffic, "body" | "bodyNotKept"> & { kept?: KeptBody };

/** The exchange the checks and the recordings read: the kept bytes decoded to text. */
export function trafficOfBytes(exchange: TrafficBytes): Traffic {
  const traffic: Record<string, unknown> = {};
  // Field by field, the body where `kept` was: a recording's keys keep the order they always had.
  for (const [key, value] of Object.entries(exchange)) {
    if (key !== "kept") traffic[key] = value;
    else {
      const decoded = decodeKept(value as KeptBody);
      if ("text" in decoded) traffic.body = decoded.text;
      else if ("failure" in decoded) traffic.failure = decoded.failure;
      else traffic.bodyNotKept = decoded.notKept;
    }
  }
  return traffic as unknown as Traffic;
}
