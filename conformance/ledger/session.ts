/**
 * One run's use of the ledger, for every command that keeps one (conformance, watch, proxy,
 * judge): read it when the run begins, record the answers as they come, probe the next version's
 * meta once (active runs), and at the end merge the run into the file and judge the result.
 */
import type { Spec } from "../../src/spec/spec.ts";
import { DEFAULT_LIMITS, type RawResponse, send } from "../http/client.ts";
import { readExchange } from "../runner/exchange.ts";
import type { Exchange, RequestCase } from "../types.ts";
import { readLedger, updateLedger } from "./file.ts";
import { judgeLedger, type LedgerJudgement } from "./judge.ts";
import { LedgerRecorder, newRunId } from "./record.ts";
import type { Ledger } from "./types.ts";
import { metaRequest, prefixToProbe, sightingOf } from "./versions.ts";

export interface LedgerOptions {
  /** The clock (tests pin it): every date the ledger writes comes from it. */
  now?: () => number;
  random?: () => number;
}

export class LedgerSession {
  readonly run: string;
  private readonly recorder: LedgerRecorder;

  private constructor(
    readonly path: string,
    readonly base: Ledger,
    private readonly spec: Spec,
    options: LedgerOptions,
  ) {
    const now = options.now ?? Date.now;
    this.run = newRunId(now(), options.random);
    this.recorder = new LedgerRecorder(base, this.run, now);
  }

  /** Reads the ledger (a missing file is an empty ledger; a file that is not one throws LedgerError). */
  static async open(path: string, spec: Spec, options: LedgerOptions = {}): Promise<LedgerSession> {
    return new LedgerSession(path, await readLedger(path), spec, options);
  }

  /** An exchange the spec routed: its fields, and for v1's meta, v1. */
  observe(exchange: Exchange): void {
    this.recorder.observeExchange(this.spec, exchange);
    if (exchange.operation?.tags.includes("meta")) this.version(this.spec.versioning.path_prefix, exchange);
  }

  /** A version's meta answer (an exchange the spec may not route: /api/v2 is not in the v1 document). */
  version(prefix: string, answer: Pick<Exchange, "status" | "headers" | "body" | "failure" | "url">): void {
    const seen = sightingOf(answer, prefix);
    if (seen) this.recorder.version(prefix, seen);
  }

  /** One request to the meta of the version after the newest one known; returns the exchange sent. */
  async probe(
    baseUrl: string,
    sender: (request: RequestCase) => Promise<RawResponse> = (request) =>
      send(baseUrl, request, undefined, DEFAULT_LIMITS),
  ): Promise<Exchange> {
    const prefix = prefixToProbe(this.base, this.spec);
    const request = metaRequest(this.spec, prefix);
    const exchange = readExchange(this.spec, request, await sender(request));
    this.version(prefix, exchange);
    return exchange;
  }

  /** Merges the run into the file and judges the ledger as written. */
  async close(): Promise<{ ledger: Ledger; judgements: LedgerJudgement[] }> {
    const ledger = await updateLedger(this.path, this.recorder.result());
    return { ledger, judgements: judgeLedger(ledger, this.run, this.spec.versioning) };
  }
}
