/**
 * Evidence is declared, never assumed: the judge counts an answer as evidence only when its check
 * says it could have shown a violation, and the report names the true reason a check had none
 * (the check's own, no account, a run cut by --max-time), never "pass" on what proved nothing.
 */
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import { parseRequest } from "../../src/spec/request.ts";
import type { Vocabulary } from "../arbitraries/vocabulary.ts";
import { cacheControl } from "../checks/cache-control.ts";
import { responseSchema } from "../checks/response-schema.ts";
import { statusCodeDocumented } from "../checks/status-code-documented.ts";
import { versioning } from "../checks/versioning.ts";
import { defaultRegistry } from "../registry.ts";
import { UNKNOWN_UID } from "../rules/uniform-body.ts";
import type { Check, CheckContext, Exchange, PlanContext, RequestCase } from "../types.ts";
import type { RateDiagnosis } from "./diagnosis.ts";
import { Judge } from "./judge.ts";
import type { Plan, PlanStep } from "./plan.ts";
import { checkResults, verdictOf } from "./report.ts";
import { Sender } from "./sender.ts";
import { MAX_TIME_REACHED, RunEnd } from "./stop.ts";
import type { Transport } from "./transport.ts";

const spec = await loadSpec();
const ctx: CheckContext = { spec, releases: [], rate: { limit: 60, windowSeconds: 60 } };
const withRelease: CheckContext = { ...ctx, releases: [{ version: "1.0.0", spec }] };

/** The spec's own example of a response body (a body the current schema accepts). */
function example(operationId: string, status: number, mediaType = "application/json"): unknown {
  const examples = spec.response(operationId, status)?.content[mediaType]?.examples ?? {};
  return Object.values(examples)[0]?.value;
}

/** An answer to a GET of the operation, as the transport reads it. */
function answer(
  request: RequestCase,
  status: number,
  body: unknown,
  mediaType = "application/json",
): Exchange {
  const op = spec.operation(request.operationId ?? "");
  return {
    request,
    url: `http://t${request.pathname}`,
    operation: op,
    parsed: parseRequest(spec, op, new URLSearchParams(request.query)),
    status,
    headers: { "content-type": mediaType },
    mediaType,
    text: JSON.stringify(body),
    body,
    sentAt: 1,
    receivedAt: 2,
  };
}

const get = (operationId: string, label = "t"): RequestCase => ({
  method: "GET",
  operationId,
  pathname: spec.operation(operationId).path,
  query: [],
  headers: {},
  label,
});

const meta = () => answer(get("getMeta"), 200, example("getMeta", 200));

/** A sender as the report reads it: what went, what did not and why (this one sends through `send`). */
function senderOf(judge: Judge, checks: Check[], send: (r: RequestCase) => Exchange = () => meta()): Sender {
  const transport = { requests: 0, failing: new Map(), send: async (r: RequestCase) => send(r) };
  return new Sender(
    ctx,
    transport as unknown as Transport,
    judge,
    {} as RateDiagnosis,
    new Map(checks.map((c) => [c.name, c])),
    1000,
    new RunEnd(Date.now() + 60_000),
  );
}

const results = (checks: Check[], judge: Judge, more: Partial<Parameters<typeof checkResults>[1]> = {}) =>
  checkResults(checks, {
    account: true,
    selected: new Set(checks.map((c) => c.name)),
    failing: new Map(),
    judge,
    ...more,
  });

const planOf = (steps: PlanStep[], groups: Plan["groups"] = []): Plan => ({
  mode: "one-address",
  rate: ctx.rate,
  budget: 190,
  burst: false,
  steps,
  groups,
  fallbacks: {},
  fallbackGroups: {},
  exploration: [],
  uncovered: [],
});

describe("the judge counts what the check declares", () => {
  it("an answer its check calls no evidence is a case, not evidence, with the check's reason", () => {
    const judge = new Judge(ctx, [versioning, statusCodeDocumented], 1, "http://t", "");
    judge.judge(meta());
    expect(judge.evidence.get("versioning")).toMatchObject({
      cases: 1,
      informative: 0,
      none: { "no frozen release for this operation": 1 },
    });
    expect(judge.evidence.get("status-code-documented")).toMatchObject({ cases: 1, informative: 1 });
  });

  it("versioning is evidence where a frozen release holds the operation", () => {
    const judge = new Judge(withRelease, [versioning], 1, "http://t", "");
    judge.judge(meta());
    expect(judge.evidence.get("versioning")).toMatchObject({ cases: 1, informative: 1, none: {} });
  });

  it("response-schema: an answer without a schema is no evidence", () => {
    const schemaless = Object.create(spec, { responseValidator: { value: () => undefined } });
    const bare: CheckContext = { ...ctx, spec: schemaless };
    expect(responseSchema.judge?.(bare, meta())).toEqual([]);
    expect(responseSchema.informative?.(bare, meta())).toEqual({ none: "no schema" });
    expect(responseSchema.informative?.(ctx, meta())).toBe(true);
  });
});

describe("the report's reasons", () => {
  it("a check whose every answer was no evidence is not exercised, with the check's reason", () => {
    const judge = new Judge(ctx, [versioning], 1, "http://t", "");
    judge.judge(meta());
    judge.judge(meta());
    expect(results([versioning], judge)[0]).toMatchObject({
      status: "not-exercised",
      cases: 2,
      informative: 0,
      reason: "no frozen release for this operation (2 answers judged)",
    });
  });

  const step = (feeds: string[]): PlanStep => ({ request: get("getMeta"), goals: [], feeds });

  it("cut by --max-time before any of its planned requests: not exercised, whatever discovery showed", () => {
    const judge = new Judge(ctx, [statusCodeDocumented], 1, "http://t", "");
    judge.judge(meta()); // discovery's answer
    const sender = senderOf(judge, [statusCodeDocumented]);
    const steps = [step(["status-code-documented"]), step(["status-code-documented"])];
    for (const s of steps) sender.unsent.set(s, MAX_TIME_REACHED);
    const [result] = results([statusCodeDocumented], judge, { plan: planOf(steps), sender });
    expect(result).toMatchObject({ status: "not-exercised", informative: 1, planned: 2, sent: 0 });
    expect(result?.reason).toBe("run cut by --max-time: 0 of its 2 planned requests sent");
  });

  it("a check that judges every answer has the whole plan as its planned requests", () => {
    const judge = new Judge(ctx, [cacheControl], 1, "http://t", "");
    judge.judge(meta()); // discovery's answer
    const sender = senderOf(judge, [cacheControl]);
    const other = step(["status-code-documented"]);
    sender.unsent.set(other, MAX_TIME_REACHED);
    const [result] = results([cacheControl], judge, { plan: planOf([other]), sender });
    expect(result).toMatchObject({ status: "not-exercised", informative: 1 });
    expect(result?.reason).toBe("run cut by --max-time: 0 of its 1 planned requests sent");
  });

  it("cut after some of its planned requests went: a pass that says what was not sent", async () => {
    const judge = new Judge(ctx, [statusCodeDocumented], 1, "http://t", "");
    const sender = senderOf(judge, [statusCodeDocumented]);
    const [sent, cut] = [step(["status-code-documented"]), step(["status-code-documented"])];
    await sender.step(sent, { phase: "plan" });
    sender.unsent.set(cut, MAX_TIME_REACHED);
    const [result] = results([statusCodeDocumented], judge, { plan: planOf([sent, cut]), sender });
    expect(result).toMatchObject({ status: "pass", planned: 2, sent: 1 });
    expect(result?.note).toBe("run cut by --max-time: 1 of its 2 planned requests sent");
  });

  it("requests kept back by the budget are not a cut", () => {
    const judge = new Judge(ctx, [statusCodeDocumented], 1, "http://t", "");
    judge.judge(meta());
    const sender = senderOf(judge, [statusCodeDocumented]);
    const kept = step(["status-code-documented"]);
    sender.unsent.set(kept, "the request budget (190) was spent");
    const [result] = results([statusCodeDocumented], judge, { plan: planOf([kept]), sender });
    expect(result).toMatchObject({ status: "pass" });
    expect(result?.note).toBeUndefined();
  });

  it("fallbacks the cut kept back are its reason when nothing else gave evidence", () => {
    const rule = defaultRegistry(spec).get("rule:feed-newest-first") as Check;
    const judge = new Judge(ctx, [rule], 1, "http://t", "");
    const sender = senderOf(judge, [rule]);
    const fallback = step([rule.name]);
    sender.unsent.set(fallback, MAX_TIME_REACHED);
    const plan = { ...planOf([]), fallbacks: { [rule.name]: [fallback] } };
    const [result] = results([rule], judge, { plan, sender });
    expect(result).toMatchObject({ status: "not-exercised" });
    expect(result?.reason).toBe("run cut by --max-time: 1 fallback request not sent");
  });
});

describe("an identical 401 body: judged in part without an account, whole only about a uid known to exist", () => {
  const rule = defaultRegistry(spec).get("rule:my-follow-credentials") as Check;
  const op = spec.operation(rule.operationId ?? "");
  const planCtx = (account?: { uid: string; key: string }): PlanContext => ({
    ...ctx,
    vocabulary: {} as Vocabulary,
    validCases: () => [],
    ...(account ? { account } : {}),
  });
  const problem = example(op.operationId, 401, "application/problem+json");
  const refuse = (body: (r: RequestCase) => unknown) => (r: RequestCase) =>
    answer(r, 401, body(r), "application/problem+json");

  async function judged(
    account: { uid: string; key: string } | undefined,
    body: (r: RequestCase) => unknown,
  ) {
    const [group] = rule.plan?.(planCtx(account)) ?? [];
    if (!group) throw new Error("the rule plans its group");
    const judge = new Judge(ctx, [rule], 1, "http://t", "");
    await senderOf(judge, [rule], refuse(body)).group(group, { phase: "plan" });
    return { group, result: results([rule], judge, { account: account !== undefined })[0] };
  }

  // Regression: without an account about 45 refusals a stream were sent and the rule stayed
  // "not exercised: no account", though one identical body across them needs no account.
  it("without an account equal bodies pass the part judged, and the note names the part not judged", async () => {
    const { group, result } = await judged(undefined, () => problem);
    expect(rule.needsAccount).toBe(false);
    expect(group.partial).toBe(UNKNOWN_UID);
    expect(group.requests.map((r) => r.label).join()).not.toMatch(/\bknown uid/);
    expect(result).toMatchObject({ status: "pass", informative: 1, note: UNKNOWN_UID });
    expect(result?.note).toMatch(/not judged: that it hides which uid exists.*give --uid and --api-key/);
  });

  it("the unjudged part needs the account the user did not give: the run's verdict stays passed", async () => {
    const { result } = await judged(undefined, () => problem);
    expect(verdictOf(result ? [result] : [], {})).toMatchObject({ verdict: "passed" });
  });

  it.each([
    ["a malformed key's body differs", (r: RequestCase) => r.headers["x-api-key"] === "not-a-key"],
    ["an unknown uid's body differs", (r: RequestCase) => r.query.some(([, v]) => v === "999999998")],
  ])("without an account bodies that differ are still a finding: %s", async (_, odd) => {
    const { result } = await judged(undefined, (r) =>
      odd(r) ? { ...(problem as object), detail: "no such uid" } : problem,
    );
    expect(result?.status).toBe("fail");
  });

  it("with the account (given, or the bundled server's demo) equal bodies are evidence of the whole rule", async () => {
    const { group, result } = await judged({ uid: "10001", key: "k".repeat(32) }, () => problem);
    expect(group.partial).toBeUndefined();
    expect(result).toMatchObject({ status: "pass", informative: 1 });
    expect(result?.note).toBeUndefined();
  });

  it("credentials-not-cached compares with the owner's answer: without an account it is not exercised", () => {
    const notCached = defaultRegistry(spec).get("credentials-not-cached") as Check;
    const [result] = results([notCached], new Judge(ctx, [notCached], 1, "http://t", ""), { account: false });
    expect(result).toMatchObject({ status: "not-exercised" });
    expect(result?.reason).toMatch(/^no account/);
  });
});
