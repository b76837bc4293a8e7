import { connect, type Socket } from "node:net";

/**
 * A keep-alive HTTP/1.1 connection for timing one request at a time, built to allocate almost
 * nothing per request: the request bytes are prebuilt (rawGet), the socket reads into one
 * reused buffer (net's `onread`), each answer is copied into an arena and its end is found by
 * scanning bytes (Content-Length, or the chunked encoding's last chunk) without building a
 * string. A timed request then costs the client a write and a few reads, and no garbage its GC
 * would have to collect in the middle of the next one. The answers are decoded afterwards
 * (response()), outside the timed part.
 */

const CR = 13;
const LF = 10;
const CONTENT_LENGTH = Buffer.from("content-length:", "latin1");
const TRANSFER_ENCODING = Buffer.from("transfer-encoding:", "latin1");

/** The bytes of a GET of `path` (already percent-encoded) on `host`. */
export function rawGet(host: string, path: string): Buffer {
  return Buffer.from(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAccept: application/json\r\n\r\n`, "latin1");
}

/** Whether the bytes at `at` are `lower` (lower-case ASCII), ignoring case. */
function startsWithIgnoringCase(buf: Buffer, at: number, end: number, lower: Buffer): boolean {
  if (at + lower.length > end) return false;
  for (let i = 0; i < lower.length; i++) {
    const c = buf[at + i] as number;
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== lower[i]) return false;
  }
  return true;
}

/** Where the chunked-encoding scanner is (plain constants: the client runs with Node's own type stripping, which has no enums). */
const Chunk = {
  Size: 0,
  Extension: 1,
  SizeLf: 2,
  Data: 3,
  DataCr: 4,
  DataLf: 5,
  TrailerStart: 6,
  TrailerLine: 7,
  FinalLf: 8,
  Done: 9,
} as const;

export interface RawResponse {
  status: number;
  body: Buffer;
}

export class RawConnection {
  private readonly socket: Socket;
  private readonly readBuffer: Buffer;
  private arena: Buffer;
  private used = 0;
  /** Arena offsets [start, end) of every kept answer. */
  private readonly kept: number[] = [];
  // The answer being read.
  private start = 0;
  private headerEnd = -1;
  private scanned = 0;
  private bodyLength = -1;
  private chunked = false;
  private chunkState: number = Chunk.Size;
  private chunkRemaining = 0;
  private pending: { resolve: (end: bigint) => void; reject: (err: Error) => void } | undefined;
  private closedWith: Error | undefined;
  /** The status of the last answer. */
  status = 0;

  private readonly keep: boolean;

  private constructor(socket: Socket, readBuffer: Buffer, arenaBytes: number, keep: boolean) {
    this.keep = keep;
    this.socket = socket;
    this.readBuffer = readBuffer;
    this.arena = Buffer.allocUnsafe(arenaBytes);
  }

  /**
   * Connects (outside any timing). `keep`: every answer stays in the arena for response(i);
   * otherwise each overwrites the last (long repeated runs).
   */
  static open(url: string, { keep = true, arenaBytes = 16 << 20 } = {}): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      let conn: RawConnection | undefined;
      // The one buffer every read of this socket lands in (net's onread: no Buffer per read).
      const readBuffer = Buffer.allocUnsafe(256 * 1024);
      const socket = connect({
        host: hostname,
        port: Number(port),
        noDelay: true,
        onread: {
          buffer: readBuffer,
          callback: (n: number) => {
            conn?.take(n);
            return true;
          },
        },
      });
      conn = new RawConnection(socket, readBuffer, arenaBytes, keep);
      const c = conn;
      socket.once("connect", () => resolve(c));
      socket.once("error", (err) => {
        c.fail(err);
        reject(err);
      });
      socket.once("close", () => c.fail(new Error("the server closed the connection")));
    });
  }

  /** Sends prebuilt request bytes; resolves with process.hrtime.bigint() taken as the answer's last byte arrived. */
  send(request: Buffer): Promise<bigint> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (this.pending) return Promise.reject(new Error("one request at a time"));
    this.start = this.keep ? this.used : 0;
    this.used = this.start;
    this.headerEnd = -1;
    this.scanned = this.start;
    this.bodyLength = -1;
    this.chunked = false;
    this.chunkState = Chunk.Size;
    this.chunkRemaining = 0;
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(request);
    });
  }

  /** Answers kept so far (keep: true). */
  get count(): number {
    return this.kept.length / 2;
  }

  /** The i-th kept answer, its body decoded from the chunked encoding when it was chunked. */
  response(i: number): RawResponse {
    const start = this.kept[2 * i] as number;
    const end = this.kept[2 * i + 1] as number;
    const raw = this.arena.subarray(start, end);
    const headerEnd = raw.indexOf("\r\n\r\n") + 4;
    const head = raw.subarray(0, headerEnd).toString("latin1");
    const status = Number(head.slice(9, 12));
    const body = raw.subarray(headerEnd);
    if (!/\r\ntransfer-encoding:[ \t]*chunked/i.test(head)) return { status, body };
    const parts: Buffer[] = [];
    for (let at = 0; ; ) {
      const lineEnd = body.indexOf("\r\n", at);
      const size = Number.parseInt(body.subarray(at, lineEnd).toString("latin1"), 16);
      if (!(size > 0)) break;
      parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    return { status, body: Buffer.concat(parts) };
  }

  close(): void {
    this.closedWith ??= new Error("closed");
    this.socket.destroy();
  }

  private fail(err: Error): void {
    this.closedWith ??= err;
    const p = this.pending;
    this.pending = undefined;
    p?.reject(err);
  }

  /** n new bytes in readBuffer: copied to the arena, then the answer's end looked for. */
  private take(n: number): void {
    if (!this.pending) return;
    if (this.used + n > this.arena.length) {
      // Rare (the arena is sized for a run): a larger arena, the answers so far copied over.
      const larger = Buffer.allocUnsafe(Math.max(this.arena.length * 2, this.used + n));
      this.arena.copy(larger, 0, 0, this.used);
      this.arena = larger;
    }
    this.readBuffer.copy(this.arena, this.used, 0, n);
    this.used += n;
    if (this.headerEnd < 0 && !this.findHeaderEnd()) return;
    if (this.complete()) {
      const end = process.hrtime.bigint();
      if (this.keep) this.kept.push(this.start, this.used);
      const p = this.pending;
      this.pending = undefined;
      p.resolve(end);
    }
  }

  /** Looks for the blank line ending the head; on it, reads the status and how the body ends. */
  private findHeaderEnd(): boolean {
    const a = this.arena;
    for (let i = Math.max(this.start, this.scanned - 3); i + 3 < this.used; i++) {
      if (a[i] === CR && a[i + 1] === LF && a[i + 2] === CR && a[i + 3] === LF) {
        this.headerEnd = i + 4;
        break;
      }
    }
    this.scanned = this.used;
    if (this.headerEnd < 0) return false;
    const s = this.start;
    this.status =
      ((a[s + 9] as number) - 48) * 100 + ((a[s + 10] as number) - 48) * 10 + ((a[s + 11] as number) - 48);
    for (let i = s; i < this.headerEnd - 2; i++) {
      if (a[i] !== LF) continue;
      if (startsWithIgnoringCase(a, i + 1, this.headerEnd, CONTENT_LENGTH)) {
        let at = i + 1 + CONTENT_LENGTH.length;
        while (a[at] === 32 || a[at] === 9) at++;
        let length = 0;
        for (let c = a[at] as number; c >= 48 && c <= 57; c = a[++at] as number)
          length = length * 10 + c - 48;
        this.bodyLength = length;
      } else if (startsWithIgnoringCase(a, i + 1, this.headerEnd, TRANSFER_ENCODING)) {
        let at = i + 1 + TRANSFER_ENCODING.length;
        while (a[at] === 32 || a[at] === 9) at++;
        this.chunked = (a[at] === 99 || a[at] === 67) && (a[at + 1] === 104 || a[at + 1] === 72); // "ch"unked
      }
    }
    // No length and not chunked: only answers without a body (204, 304) end here.
    if (!this.chunked && this.bodyLength < 0) this.bodyLength = 0;
    this.scanned = this.headerEnd;
    return true;
  }

  private complete(): boolean {
    if (!this.chunked) return this.used - this.headerEnd >= this.bodyLength;
    const a = this.arena;
    let at = this.scanned;
    while (at < this.used && this.chunkState !== Chunk.Done) {
      const c = a[at] as number;
      switch (this.chunkState) {
        case Chunk.Size: {
          const digit =
            c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
          if (digit >= 0) this.chunkRemaining = this.chunkRemaining * 16 + digit;
          else this.chunkState = c === CR ? Chunk.SizeLf : Chunk.Extension;
          at++;
          break;
        }
        case Chunk.Extension:
          if (c === CR) this.chunkState = Chunk.SizeLf;
          at++;
          break;
        case Chunk.SizeLf:
          this.chunkState = this.chunkRemaining === 0 ? Chunk.TrailerStart : Chunk.Data;
          at++;
          break;
        case Chunk.Data: {
          const n = Math.min(this.chunkRemaining, this.used - at);
          at += n;
          this.chunkRemaining -= n;
          if (this.chunkRemaining === 0) this.chunkState = Chunk.DataCr;
          break;
        }
        case Chunk.DataCr:
          this.chunkState = Chunk.DataLf;
          at++;
          break;
        case Chunk.DataLf:
          this.chunkState = Chunk.Size;
          at++;
          break;
        case Chunk.TrailerStart:
          this.chunkState = c === CR ? Chunk.FinalLf : Chunk.TrailerLine;
          at++;
          break;
        case Chunk.TrailerLine:
          if (c === LF) this.chunkState = Chunk.TrailerStart;
          at++;
          break;
        case Chunk.FinalLf:
          this.chunkState = Chunk.Done;
          at++;
          break;
      }
    }
    this.scanned = at;
    return this.chunkState === Chunk.Done;
  }
}
