/**
 * Property-based exploration of one operation with fast-check: the fixed cases run first
 * (boundaries, then the rule-planned cases), then random requests from the spec's arbitraries.
 * The property fails on a finding not reported yet; fast-check shrinks the request to a
 * minimal one, which is reported, and the exploration goes on with that finding known. Answers
 * are cached, so a rerun from the same seed re-spends nothing.
 */
import fc from "fast-check";
import type { Operation } from "../../src/spec/types.ts";
import { UnreachableError } from "../http/client.ts";
import type { Exchange, RequestCase } from "../types.ts";
import type { Recorder } from "./results.ts";

export interface ExploreEnv {
  recorder: Recorder;
  cached(request: RequestCase): Promise<Exchange>;
  /** True once the run's request budget is spent: properties stop asking. */
  exhausted(): boolean;
}

const MAX_ROUNDS = 12;

export async function explore(
  env: ExploreEnv,
  op: Operation,
  examples: RequestCase[],
  arbitrary: fc.Arbitrary<RequestCase>,
  seed: number,
  randomRuns: number,
): Promise<void> {
  const known = new Set<string>();
  const fresh = (exchange: Exchange) =>
    env.recorder.judge(exchange).filter((j) => !known.has(j.key) && !env.recorder.has(j.key));
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const property = fc.asyncProperty(arbitrary, async (request) => {
      if (env.exhausted()) return true;
      return fresh(await env.cached(request)).length === 0;
    });
    const details = await fc.check(property, {
      seed,
      numRuns: examples.length + randomRuns,
      examples: examples.map((e) => [e] as [RequestCase]),
    });
    if (details.errorInstance instanceof UnreachableError) throw details.errorInstance;
    if (!details.failed || !details.counterexample) return;
    const exchange = await env.cached(details.counterexample[0]);
    const found = fresh(exchange);
    if (found.length === 0) return;
    for (const j of found) {
      known.add(j.key);
      const minimal = await dropEntries(env, exchange, j.key);
      env.recorder.record(j.check, j.finding, minimal, `${op.operationId}:${details.counterexamplePath}`);
    }
  }
}

const MAX_DROPS = 12;

/**
 * fast-check shrinks random requests but not the fixed cases given as examples: this removes
 * query entries one at a time while the same finding persists (a few cached requests at most),
 * so `q=&kp=x&mip=&mxp=` is reported as `kp=x`.
 */
async function dropEntries(env: ExploreEnv, exchange: Exchange, key: string): Promise<Exchange> {
  let best = exchange;
  let tries = 0;
  for (let i = 0; i < best.request.query.length && tries < MAX_DROPS && !env.exhausted(); ) {
    // The uid is half of the credentials the request is labelled with: it stays.
    if (best.request.credentials && best.request.query[i]?.[0] === "uid") {
      i++;
      continue;
    }
    const query = best.request.query.filter((_, j) => j !== i);
    tries++;
    const candidate = await env.cached({ ...best.request, query });
    if (env.recorder.judge(candidate).some((j) => j.key === key)) best = candidate;
    else i++;
  }
  return best;
}
