/**
 * What the client judge reads (one observed exchange) and what it reports (findings per client,
 * each naming its rule with the requests that show it).
 */
import type { Verdict } from "../runner/report.ts";
import type { ClientRuleId } from "./rules.ts";

/** One request a client sent and the answer it got, as an observer (mock, proxy, recording) saw it. */
export interface ClientObservation {
  /** Unix seconds (fractional) the request started. */
  time: number;
  /** Unix seconds its answer was complete (the time a wait after it starts). */
  answeredAt: number;
  /** The source address: one client. */
  client: string;
  userAgent?: string;
  method: string;
  /** Path and query as sent, below the API's base path. */
  target: string;
  /** Lower-cased request header names → values; the key header's value is the key (judged, never reported). */
  requestHeaders: Record<string, string>;
  status: number;
  responseHeaders: Record<string, string>;
  /** The problem type of a problem+json answer. */
  problemType?: string;
  /** The variation ids the answer carried (the mock's X-Dealkit-Variations). */
  variations: string[];
}

/** A request shown as evidence: never the key (masked wherever it travelled). */
export interface EvidenceRequest {
  method: string;
  target: string;
  /** ISO time the request started. */
  at: string;
  status: number;
  note?: string;
}

export interface ClientFinding {
  rule: ClientRuleId;
  /** What the client did, in one sentence with the numbers. */
  message: string;
  /** How many times the client did it. */
  count: number;
  /** The first requests that show it (at most EVIDENCE_CAP). */
  evidence: EvidenceRequest[];
  /** What follows from this finding and is shown under it, not beside it. */
  includes?: string[];
}

/** What a client did after an answer carrying variations. */
export interface VariationOutcome {
  at: string;
  request: EvidenceRequest;
  variations: string[];
  /** "next request after 1.2 s", "repeated at once (0.1 s)", "stopped", "storm (5 × 429 in 60 s)". */
  next: "went-on" | "repeated-at-once" | "stopped" | "storm";
  delaySeconds?: number;
  nextRequest?: EvidenceRequest;
}

export type ClientVerdict = Extract<Verdict, "passed" | "failed">;

export interface ClientReport {
  client: string;
  userAgents: string[];
  requests: number;
  first: string;
  last: string;
  verdict: ClientVerdict;
  findings: ClientFinding[];
  variations: VariationOutcome[];
  /** Rules the traffic could not judge, with why (keys redacted in a recording). */
  notJudged: { rule: ClientRuleId; reason: string }[];
}

export interface ClientsReport {
  kind: "dealkit-clients";
  /** failed: a client has findings; passed: clients seen, none with findings; incomplete: no client seen. */
  verdict: Extract<Verdict, "passed" | "failed" | "incomplete">;
  headline: string;
  observed: number;
  clients: ClientReport[];
  rules: { id: ClientRuleId; summary: string; source: string }[];
  /** Clients past the judge's bound, seen but not judged. */
  untracked: number;
}

/** Requests kept as evidence per finding: enough to reproduce, bounded for a proxy that runs for days. */
export const EVIDENCE_CAP = 5;
