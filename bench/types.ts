/** What every scenario hands back to the report: tables to print, targets judged, raw figures. */

export type Cell = string | number;

export interface Table {
  caption?: string;
  columns: string[];
  rows: Cell[][];
}

/** A target of issue 7, judged on this run's figures. `met: null` = could not be measured. */
export interface TargetResult {
  name: string;
  met: boolean | null;
  /** The measured figure and how it compares, e.g. "0.62× of bare node:http (12,400 vs 20,000 req/s)". */
  measured: string;
  /** The one figure the verdict is judged on (a ratio, ms, MB), compared across runs. */
  value?: number;
  /** Its unit as printed after the number: "×", " ms", " MB". */
  unit?: string;
}

export interface Section {
  id: string;
  title: string;
  /** What was measured and how, in a sentence or two (shown above the tables). */
  method: string;
  tables: Table[];
  targets: TargetResult[];
  /** Findings, caveats and anything that did not run. */
  notes: string[];
  /** Raw figures for results.json. */
  data: unknown;
  wallSeconds?: number;
}

export interface RunHeader {
  date: string;
  commit: string;
  dirty: boolean;
  node: string;
  cpus: number;
  cpuModel: string;
  platform: string;
  quick: boolean;
  only: string[];
  wallSeconds: number;
  /**
   * The machine's load averages (1, 5 and 15 min) when the run started: how busy it was in the
   * minutes before, which moves the throughput ratios (bench/README.md, finding 12). Missing in
   * runs written before it was recorded.
   */
  loadBefore?: [number, number, number];
}

export interface BenchRun {
  header: RunHeader;
  sections: Section[];
}
