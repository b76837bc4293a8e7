import { HarWriter } from "./har.ts";
import type { FindingRecord, TrafficVerdict } from "./judging.ts";
import { exchangeLine, findingLine } from "./ndjson.ts";
import { openRecording } from "./recording.ts";
import type { Traffic } from "./traffic.ts";

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** One console line: the check, what was wrong, and the curl line that sends the request again. */
export function consoleLine(f: FindingRecord): string {
  return `✗ ${f.check} [${f.severity}] ${f.operation} ${f.status}: ${clip(f.title, 240)} | ${f.request}`;
}

/**
 * Where a passive run's output goes: recordings take each exchange as it completes (before it is
 * judged, so the proxy holds nothing of it while the judge works), findings take each verdict.
 */
export interface Sink {
  exchange?(traffic: Traffic): void;
  verdict?(verdict: TrafficVerdict): void;
  close(): Promise<void>;
}

/** Every finding, repeats included, one NDJSON line each. */
export async function findingsSink(path: string): Promise<Sink> {
  const out = await openRecording(path);
  return {
    verdict: (verdict) => {
      for (const f of verdict.findings) out.write(findingLine(f));
    },
    close: () => out.close(),
  };
}

/** Every exchange, one NDJSON line each (what `dealkit judge` reads back). */
export async function exchangesSink(path: string): Promise<Sink> {
  const out = await openRecording(path);
  return { exchange: (traffic) => out.write(exchangeLine(traffic)), close: () => out.close() };
}

/** Every exchange as a HAR entry. */
export async function harSink(path: string): Promise<Sink> {
  const har = new HarWriter(await openRecording(path));
  return { exchange: (traffic) => har.write(traffic), close: () => har.close() };
}

/** The console: the first finding of each kind, as it comes. */
export function consoleSink(out: (line: string) => void): Sink {
  return {
    verdict: (verdict) => {
      for (const f of verdict.findings) if (f.first) out(consoleLine(f));
    },
    close: async () => {},
  };
}
