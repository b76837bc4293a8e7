import { type FileHandle, open } from "node:fs/promises";
import { oneLine } from "../../src/errors/one-line.ts";

/** The default largest record (an NDJSON line, or one item of a JSON array), in bytes. */
export const DEFAULT_MAX_RECORD_BYTES = 1024 * 1024;

/** The file cannot be read, or is not well-formed: nothing is imported. The message is one line. */
export class ImportInputError extends Error {}

/** One record of the file: its parsed value, or why it cannot be used. */
export type RawRecord =
  | { at: string; line: number; value: unknown }
  | { at: string; line: number; reason: string };

const CHUNK_BYTES = 64 * 1024;
const NL = 0x0a;

/**
 * Streams the records of an import file: NDJSON (one item per line) or one JSON array of items,
 * told apart by the first character that is not white space (`[`: an array). A UTF-8 byte order
 * mark at the start is dropped. Memory stays bounded whatever the file holds: a record is
 * buffered only up to `maxRecordBytes`; a longer one is read through to its end, its bytes
 * discarded, and yielded as rejected. An NDJSON line that is not JSON (or not UTF-8) is a
 * rejected record; a JSON array that is malformed or truncated is an ImportInputError (its
 * items cannot be told apart reliably any more), as is a file that cannot be read.
 */
export async function* readRecords(
  path: string,
  maxRecordBytes: number,
): AsyncGenerator<RawRecord, void, undefined> {
  yield* splitRecords(fileChunks(path), path, maxRecordBytes);
}

/**
 * The records of a byte stream cut into chunks of any size (readRecords' work; `name` labels
 * errors). A chunk may be a buffer read into again once the next chunk is asked for.
 */
export async function* splitRecords(
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
  name: string,
  maxRecordBytes: number,
): AsyncGenerator<RawRecord, void, undefined> {
  const splitter = new Splitter(name, maxRecordBytes);
  for await (const chunk of chunks) yield* splitter.push(chunk);
  yield* splitter.end();
}

async function* fileChunks(path: string): AsyncGenerator<Buffer, void, undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, "r");
  } catch (err) {
    throw new ImportInputError(`${path}: cannot read the file: ${describeFsError(err)}`);
  }
  try {
    // One buffer, read into again and again: a long record leaves no garbage behind.
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    for (;;) {
      let bytes: number;
      try {
        bytes = (await handle.read(buffer, 0, buffer.length, null)).bytesRead;
      } catch (err) {
        throw new ImportInputError(`${path}: cannot read the file: ${describeFsError(err)}`);
      }
      if (bytes === 0) return;
      yield buffer.subarray(0, bytes);
    }
  } finally {
    await handle.close();
  }
}

function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "it is a directory";
  return oneLine(err);
}

/**
 * V8's JSON.parse message without the quoted excerpt of the input it may carry, with its
 * position turned into a line of the file (`firstLine`: the line the parsed text starts on).
 */
function jsonProblem(err: unknown, firstLine: number): { what: string; line: number } {
  let what = (err as Error).message.replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, "");
  let line = firstLine;
  const at = /(?: in JSON)? at position \d+(?: \(line (\d+) column (\d+)\))?$/.exec(what);
  if (at) {
    what = what.slice(0, at.index);
    if (at[1]) line = firstLine + Number(at[1]) - 1;
    if (at[1] === "1" && at[2]) what += ` (column ${at[2]})`;
  }
  return { what, line };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** "start": nothing but white space (and a byte order mark) seen yet. */
type Mode = "start" | "ndjson" | "array";

/**
 * Where a JSON array's scanner is: "open" after `[` (an item or `]`), "item" inside an item,
 * "after" an item (`,` or `]`), "next" after `,` (an item), "done" after the closing `]` (only
 * white space).
 */
type At = "open" | "item" | "after" | "next" | "done";

function isSpace(b: number): boolean {
  return b === 0x20 || b === NL || b === 0x0d || b === 0x09;
}

/** Cuts the byte stream into records; push() and end() return the records completed. */
class Splitter {
  private mode: Mode = "start";
  /** The first bytes while a byte order mark may still be forming. */
  private head: Buffer | undefined = Buffer.alloc(0);
  /** The current line (1-based), the file offset of its first byte, the offset of the next byte. */
  private line = 1;
  private lineStart = 0;
  private offset = 0;
  // The record being collected: its pieces (at most maxRecordBytes in all) and its full size.
  private pieces: Buffer[] = [];
  private size = 0;
  private recordLine = 1;
  // JSON array state.
  private at: At = "open";
  private items = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(
    private readonly path: string,
    private readonly max: number,
  ) {}

  push(chunk: Buffer): RawRecord[] {
    if (this.head) {
      const head = Buffer.concat([this.head, chunk]);
      if (head.length < 3) {
        this.head = head;
        return [];
      }
      this.head = undefined;
      chunk = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? head.subarray(3) : head;
      this.offset = this.lineStart = head.length - chunk.length;
    }
    return this.scan(chunk);
  }

  end(): RawRecord[] {
    const out = this.head ? this.scan(this.head) : [];
    this.head = undefined;
    if (this.mode === "ndjson") {
      const last = this.endLine();
      if (last) out.push(last);
    } else if (this.mode === "array" && this.at !== "done") {
      throw this.error(this.line, this.truncated());
    }
    return out;
  }

  private scan(chunk: Buffer): RawRecord[] {
    const out: RawRecord[] = [];
    let i = 0;
    if (this.mode === "start") {
      while (i < chunk.length && isSpace(chunk[i] as number)) {
        if (chunk[i] === NL) this.newline(this.offset + i + 1);
        i++;
      }
      if (i < chunk.length) {
        this.mode = chunk[i] === 0x5b ? "array" : "ndjson";
        this.recordLine = this.line;
        if (this.mode === "array") {
          i++;
          this.at = "open";
        }
      }
    }
    if (this.mode === "ndjson") this.scanLines(chunk, i, out);
    else if (this.mode === "array") this.scanArray(chunk, i, out);
    this.offset += chunk.length;
    return out;
  }

  private newline(nextLineStart: number): void {
    this.line++;
    this.lineStart = nextLineStart;
  }

  /**
   * Keeps bytes of the current record while it fits the limit; counts them in any case. The
   * chunk's buffer is read into again: a piece that reaches its end (the record goes on in the
   * next chunk) is copied; any other is used before this chunk's scan returns.
   */
  private take(chunk: Buffer, from: number, to: number): void {
    if (to <= from) return;
    if (this.size + (to - from) <= this.max) {
      const piece = chunk.subarray(from, to);
      this.pieces.push(to === chunk.length ? Buffer.from(piece) : piece);
    } else this.pieces = [];
    this.size += to - from;
  }

  // NDJSON

  private scanLines(chunk: Buffer, from: number, out: RawRecord[]): void {
    let pos = from;
    while (pos < chunk.length) {
      const nl = chunk.indexOf(NL, pos);
      this.take(chunk, pos, nl === -1 ? chunk.length : nl);
      if (nl === -1) break;
      const record = this.endLine();
      if (record) out.push(record);
      this.newline(this.offset + nl + 1);
      this.recordLine = this.line;
      pos = nl + 1;
    }
  }

  /** The pieces gathered for the record just ended, as text, or why they are not one. */
  private takeRecord(): string | { reason: string; tooLarge: boolean } {
    const size = this.size;
    const pieces = this.pieces;
    this.pieces = [];
    this.size = 0;
    if (size > this.max) return { reason: tooLargeText(size, this.max), tooLarge: true };
    try {
      return utf8.decode(Buffer.concat(pieces, size));
    } catch {
      return { reason: "not UTF-8 text", tooLarge: false };
    }
  }

  /** The record of the line just ended, or undefined for a blank line. */
  private endLine(): RawRecord | undefined {
    const line = this.recordLine;
    const at = `line ${line}`;
    const text = this.takeRecord();
    if (typeof text !== "string") return { at, line, reason: text.reason };
    if (text.trim() === "") return undefined;
    try {
      return { at, line, value: JSON.parse(text) };
    } catch (err) {
      const hint =
        line === 1 && text.trim() === "{"
          ? " (NDJSON holds one whole item per line; a JSON file must be an array of items)"
          : "";
      return { at, line, reason: `not JSON: ${jsonProblem(err, line).what}${hint}` };
    }
  }

  // JSON array

  private scanArray(chunk: Buffer, from: number, out: RawRecord[]): void {
    let itemFrom = this.at === "item" ? from : -1;
    for (let i = from; i < chunk.length; i++) {
      const b = chunk[i] as number;
      if (this.at === "item") {
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (b === 0x5c) this.escaped = true;
          else if (b === 0x22) this.inString = false;
          else if (b === NL) this.newline(this.offset + i + 1);
          continue;
        }
        if (b === 0x22) this.inString = true;
        else if (b === 0x7b || b === 0x5b) this.depth++;
        else if (b === NL) this.newline(this.offset + i + 1);
        else if ((b === 0x7d || b === 0x5d) && this.depth > 0) {
          // An object or array item ends with its closing bracket.
          if (--this.depth === 0) {
            this.take(chunk, itemFrom, i + 1);
            out.push(this.endItem());
            this.at = "after";
          }
        } else if (b === 0x7d || b === 0x5d || (b === 0x2c && this.depth === 0)) {
          // A scalar item ends before the byte, which is read again as what follows it.
          this.take(chunk, itemFrom, i);
          out.push(this.endItem());
          this.at = "after";
          i--;
        }
        continue;
      }
      if (isSpace(b)) {
        if (b === NL) this.newline(this.offset + i + 1);
        continue;
      }
      if (this.at === "after") {
        if (b === 0x2c) this.at = "next";
        else if (b === 0x5d) this.at = "done";
        else throw this.error(this.line, `expected ',' or ']' after item ${this.items}, found ${show(b)}`, i);
      } else if (this.at === "done") {
        throw this.error(
          this.line,
          `expected nothing after the closing ']' of the array, found ${show(b)}`,
          i,
        );
      } else if (b === 0x5d && this.at === "open") {
        this.at = "done";
      } else if (b === 0x5d || b === 0x2c) {
        throw this.error(this.line, `expected item ${this.items + 1}, found ${show(b)}`, i);
      } else {
        this.at = "item";
        this.items++;
        this.recordLine = this.line;
        this.depth = 0;
        this.inString = false;
        this.escaped = false;
        itemFrom = i;
        i--;
      }
    }
    if (this.at === "item") this.take(chunk, itemFrom, chunk.length);
  }

  private endItem(): RawRecord {
    const line = this.recordLine;
    const at = `item ${this.items} (line ${line})`;
    const text = this.takeRecord();
    if (typeof text !== "string") {
      // An item too large is one rejected record; bytes that are no text break the whole array.
      if (text.tooLarge) return { at, line, reason: text.reason };
      throw this.error(line, `item ${this.items} is not UTF-8 text`);
    }
    try {
      return { at, line, value: JSON.parse(text) };
    } catch (err) {
      const problem = jsonProblem(err, line);
      throw this.error(problem.line, `item ${this.items} is not valid JSON: ${problem.what}`);
    }
  }

  private truncated(): string {
    const n = this.items;
    const what =
      this.at === "item"
        ? `inside item ${n}${this.recordLine < this.line ? ` (begun on line ${this.recordLine})` : ""}; expected the rest of it and a closing ']'`
        : this.at === "after"
          ? `after item ${n}; expected ',' or the closing ']'`
          : `where item ${n + 1} was expected; expected an item or the closing ']'`;
    return `the JSON array is truncated: the file ends ${what}`;
  }

  /** A one-line error naming the file and the place; `index` (in the chunk being scanned) adds the column. */
  private error(line: number, what: string, index?: number): ImportInputError {
    const column = index === undefined ? "" : `, column ${this.offset + index - this.lineStart + 1}`;
    return new ImportInputError(`${this.path}: line ${line}${column}: ${what}`);
  }
}

function tooLargeText(size: number, max: number): string {
  return `the record is ${size} bytes, over the limit of ${max} bytes (--max-record-bytes)`;
}

function show(b: number): string {
  return b >= 0x20 && b < 0x7f ? `'${String.fromCharCode(b)}'` : `byte 0x${b.toString(16).padStart(2, "0")}`;
}
