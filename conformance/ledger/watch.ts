/**
 * A low-budget watch of one deployment: every interval a small rotating sample of valid requests
 * (v1's meta, one probe of the next version's meta, and the rest from the rotation), each answer
 * judged by the single-answer checks and recorded in the ledger; findings are printed as NDJSON
 * as they come. An interval never sends more than its budget: the sender refuses the request
 * past it. For a cron job (`--intervals 1`: the rotation continues from the ledger's run count)
 * or a long-running container.
 */
import { DEFAULT_LIMITS, type RawResponse, send } from "../http/client.ts";
import { passiveSetup, TrafficJudge } from "../passive/judge-traffic.ts";
import { verdictOf } from "../passive/judging.ts";
import { findingLine } from "../passive/ndjson.ts";
import type { Traffic } from "../passive/traffic.ts";
import type { RequestCase } from "../types.ts";
import type { LedgerJudgement } from "./judge.ts";
import { rotation, sampleRequests } from "./sample.ts";
import { LedgerSession } from "./session.ts";
import { metaRequest } from "./versions.ts";

/** Requests every interval needs besides the rotation: v1's meta and the next version's. */
export const FIXED_REQUESTS = 2;

export interface WatchOptions {
  baseUrl: string;
  ledger: string;
  everyMs: number;
  /** Most requests of one interval, all included. */
  budget: number;
  /** Stop after this many intervals (default: until the signal). */
  intervals?: number;
  /** NDJSON lines out (one JSON value a line, newline included). */
  write: (line: string) => void;
  signal?: AbortSignal;
  /** The clock and the wait between intervals (tests inject both). */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Sends one request (default: the suite's HTTP client). */
  sender?: (baseUrl: string, request: RequestCase) => Promise<RawResponse>;
  specPath?: string;
}

export interface IntervalSummary {
  interval: number;
  requests: number;
  findings: number;
  judgements: LedgerJudgement[];
}

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, Math.max(0, ms));
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** A sender that refuses the request past the interval's budget (a bug in the watch, never a request). */
function budgeted(send: (request: RequestCase) => Promise<RawResponse>, budget: number) {
  let sent = 0;
  return {
    send: (request: RequestCase) => {
      if (sent >= budget) throw new Error(`the watch's interval budget of ${budget} requests is spent`);
      sent++;
      return send(request);
    },
    get sent() {
      return sent;
    },
  };
}

const trafficOf = (request: RequestCase, raw: RawResponse): Traffic => ({
  method: request.method,
  url: raw.url,
  requestHeaders: request.headers,
  status: raw.status,
  responseHeaders: raw.headers,
  body: raw.text,
  startedAt: raw.sentAt,
  receivedAt: raw.receivedAt,
  ...(raw.failure ? { failure: raw.failure } : {}),
});

const judgementKey = (j: LedgerJudgement) =>
  `${j.check} ${j.level} ${j.answerKind ?? j.operation} ${j.path ?? ""}`;

/** Runs the watch; resolves when the intervals are done or the signal stops it. */
export async function watch(options: WatchOptions): Promise<IntervalSummary[]> {
  if (options.budget < FIXED_REQUESTS + 1)
    throw new Error(`the budget must allow ${FIXED_REQUESTS + 1} requests an interval at least`);
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? wait;
  const sender = options.sender ?? ((baseUrl, request) => send(baseUrl, request, undefined, DEFAULT_LIMITS));
  const setup = await passiveSetup({ ...(options.specPath ? { specPath: options.specPath } : {}) });
  const { spec } = setup;
  const samples = sampleRequests(spec).filter(
    (r) => !spec.operation(r.operationId ?? "").tags.includes("meta"),
  );
  const perInterval = options.budget - FIXED_REQUESTS;
  const basePath = new URL(options.baseUrl).pathname;
  // A finding or judgement is printed when it first comes, not again every interval.
  const printed = new Set<string>();
  const emit = (value: Record<string, unknown>) =>
    options.write(`${JSON.stringify({ at: new Date(now()).toISOString(), ...value })}\n`);
  const summaries: IntervalSummary[] = [];
  for (let interval = 1; !options.signal?.aborted; interval++) {
    const started = now();
    const session = await LedgerSession.open(options.ledger, spec, { now });
    const judge = new TrafficJudge(setup, { target: options.baseUrl, baseUrl: options.baseUrl, basePath });
    const budget = budgeted((request) => sender(options.baseUrl, request), options.budget);
    let findings = 0;
    const meta = metaRequest(spec, spec.versioning.path_prefix);
    const cursor = session.base.runs * perInterval;
    for (const request of [meta, ...rotation(samples, cursor, perInterval)]) {
      if (options.signal?.aborted) break;
      const raw = await budget.send(request);
      const observed = judge.observe(trafficOf(request, raw));
      if (observed.exchange) session.observe(observed.exchange);
      else if (request === meta) session.version(spec.versioning.path_prefix, { ...raw, body: undefined });
      for (const f of verdictOf(observed).findings) {
        findings++;
        const key = `${f.check} ${f.code} ${f.operation}`;
        if (printed.has(key)) continue;
        printed.add(key);
        options.write(findingLine(f, new Date(now())));
      }
    }
    if (!options.signal?.aborted) await session.probe(options.baseUrl, budget.send);
    const { judgements } = await session.close();
    for (const j of judgements) {
      const key = judgementKey(j);
      if (printed.has(key)) continue;
      printed.add(key);
      emit({ kind: "ledger", ...j });
    }
    emit({
      kind: "interval",
      interval,
      run: session.run,
      requests: budget.sent,
      budget: options.budget,
      findings,
    });
    summaries.push({ interval, requests: budget.sent, findings, judgements });
    if (options.intervals !== undefined && interval >= options.intervals) break;
    await sleep(started + options.everyMs - now(), options.signal);
  }
  return summaries;
}
