/**
 * One line that updates in place on a terminal (`\r` and erase-line), with the run's log lines
 * printed above it: the live progress of `dealkit conformance` when stdout is a TTY.
 */

/** What the live line writes to: process.stdout, or a test's writer saying it is a TTY. */
export interface Terminal {
  isTTY?: boolean;
  columns?: number;
  write(chunk: string): unknown;
}

const ERASE = "\r\x1b[K";

export class LiveLine {
  private shown = "";

  constructor(private readonly terminal: Terminal) {}

  /** Redraws the line (cut to the terminal's width: a wrapped line cannot be redrawn in place). */
  update(text: string): void {
    const width = Math.max(20, (this.terminal.columns ?? 80) - 1);
    this.shown = text.length > width ? `${text.slice(0, width - 1)}…` : text;
    this.terminal.write(`${ERASE}${this.shown}`);
  }

  /** A log line above the live one, which is drawn again below it. */
  print(line: string): void {
    this.terminal.write(`${ERASE}${line}\n${this.shown}`);
  }

  /** Erases the line for good (the run's end: the report follows). */
  clear(): void {
    if (this.shown) this.terminal.write(ERASE);
    this.shown = "";
  }
}
