/**
 * Random exploration of one operation with fast-check, after the plan: requests from the spec's
 * arbitraries (valid, one parameter invalid, fuzzed). The property fails on a finding not
 * reported yet; fast-check shrinks the request to a minimal one, which is reported, and the
 * exploration goes on with that finding known. Answers are cached, so shrinking re-spends nothing
 * it already asked.
 */
import fc from "fast-check";
import type { Operation } from "../../src/spec/types.ts";
import type { Exchange, RequestCase } from "../types.ts";
import type { Judge } from "./judge.ts";

export interface ExploreEnv {
  judge: Judge;
  cached(request: RequestCase): Promise<Exchange>;
  /** True once nothing more may be sent (budget, deadline, a failing endpoint): properties stop asking. */
  exhausted(): boolean;
}

const MAX_ROUNDS = 12;

export async function explore(
  env: ExploreEnv,
  op: Operation,
  arbitrary: fc.Arbitrary<RequestCase>,
  seed: number,
  runs: number,
): Promise<void> {
  const known = new Set<string>();
  const fresh = (exchange: Exchange) =>
    env.judge.judge(exchange).filter((j) => !known.has(j.key) && !env.judge.has(j.key));
  for (let round = 0; round < MAX_ROUNDS && runs > 0; round++) {
    const property = fc.asyncProperty(arbitrary, async (request) => {
      if (env.exhausted()) return true;
      const exchange = await env.cached(request).catch(() => undefined);
      return !exchange || fresh(exchange).length === 0;
    });
    const details = await fc.check(property, { seed, numRuns: runs });
    if (!details.failed || !details.counterexample) return;
    const exchange = await env.cached(details.counterexample[0]).catch(() => undefined);
    if (!exchange) return;
    const found = fresh(exchange);
    if (found.length === 0) return;
    for (const j of found) {
      known.add(j.key);
      env.judge.record(j.check, j.finding, exchange, `${op.operationId}:${details.counterexamplePath}`);
    }
  }
}

const MAX_DROPS = 12;

/**
 * The plan's requests are fixed, not shrunk by fast-check: this removes query entries one at a
 * time while the same finding persists (a few requests at most), so `q=&kp=x&mip=&mxp=` is
 * reported as `kp=x`.
 */
export async function dropEntries(env: ExploreEnv, exchange: Exchange, key: string): Promise<Exchange> {
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
    const candidate = await env.cached({ ...best.request, query }).catch(() => undefined);
    if (!candidate) break;
    if (env.judge.judge(candidate).some((j) => j.key === key)) best = candidate;
    else i++;
  }
  return best;
}
