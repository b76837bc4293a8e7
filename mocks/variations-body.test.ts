import { beforeAll, describe, expect, it } from "vitest";
import { Prng } from "../reference-server/data/prng.ts";
import { checkRule } from "../src/rules/evaluate.ts";
import { loadSpec } from "../src/spec/load.ts";
import type { Spec } from "../src/spec/spec.ts";
import { DEFAULT_DEMO_ACCOUNT } from "./auth.ts";
import { fixtureAnswerer } from "./fixtures/answer.ts";
import { readFixtures } from "./fixtures/store.ts";
import { everyAcceptedRequest, type RequestCase } from "./request-cases.ts";
import { type BodyVariationId, keptPointers, varyBody } from "./variations-body.ts";
import { VARIATIONS } from "./variations-catalogue.ts";

// Bodies are varied without Prism: the fixtures' answers to every boundary request, under
// several seeds, each varied answer judged as the conformance suite judges one (ajv against the
// response schema of 200, and every x-conformance rule of the operation).
const BODY_IDS: BodyVariationId[] = ["added-fields", "optional-absent", "content-omitted", "keys-shuffled"];
const NOW = 1_767_240_000 + 30 * 86_400;

let spec: Spec;
let cases: { c: RequestCase; body: unknown }[];

beforeAll(async () => {
  spec = await loadSpec();
  const answerer = fixtureAnswerer(spec, readFixtures(), DEFAULT_DEMO_ACCOUNT);
  cases = everyAcceptedRequest(spec)
    .filter((c) => c.operation.operationId !== "getRss")
    .map((c) => {
      const headers = { "x-api-key": DEFAULT_DEMO_ACCOUNT.apiKey };
      const a = answerer.answer({
        operation: c.operation,
        parsed: c.parsed,
        headers,
        baseUrl: "http://m.test",
        now: NOW,
      });
      expect(a.status).toBe(200);
      return { c, body: JSON.parse(a.body) };
    });
  answerer.close();
});

function vary(c: RequestCase, body: unknown, seed: number, chosen: BodyVariationId[]) {
  const schema = spec.responseSchema(c.operation.operationId, 200, "application/json");
  if (!schema) throw new Error(`no schema for ${c.operation.operationId}`);
  const random = new Prng(seed);
  return varyBody(structuredClone(body), schema, {
    spec,
    operation: c.operation,
    request: c.parsed,
    random,
    chosen: new Set(chosen),
  });
}

function failuresOf(c: RequestCase, body: unknown): string[] {
  const validate = spec.responseValidator(c.operation.operationId, 200, "application/json");
  const schemaErrors = validate?.(body)
    ? []
    : (validate?.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  const exchange = {
    operation: c.operation,
    request: c.parsed,
    credentials: "valid" as const,
    status: 200,
    mediaType: "application/json",
    body,
    sentAt: NOW,
    receivedAt: NOW,
  };
  const ruleErrors = c.operation.rules.flatMap((rule) =>
    checkRule(spec, rule, exchange).map((f) => `${f.ruleId}: ${f.message}`),
  );
  return [...schemaErrors, ...ruleErrors];
}

describe("body variations (added-fields, optional-absent, content-omitted, keys-shuffled)", () => {
  it("keep every answer valid: its 200 schema and every rule of its operation, over many seeds and subsets", () => {
    const applied = new Set<string>();
    let judged = 0;
    for (const [i, { c, body }] of cases.entries()) {
      expect(failuresOf(c, body), `unvaried ${c.path}?${c.query}`).toEqual([]);
      for (const seed of [1, 2, 3]) {
        const subset = BODY_IDS.filter((_, bit) => ((i + seed) >> bit) % 2 === 1 || seed === 3);
        const varied = vary(c, body, seed * 1000 + i, subset);
        for (const id of varied.applied) applied.add(id);
        expect(failuresOf(c, varied.body), `${varied.applied} ${c.path}?${c.query}`).toEqual([]);
        judged++;
      }
    }
    expect(judged).toBeGreaterThan(100);
    expect([...applied].sort()).toEqual([...BODY_IDS].sort());
  });

  it("adds fields at every object level, named nowhere in the spec", () => {
    const c = cases.find((x) => x.c.operation.operationId === "searchAlerts");
    if (!c) throw new Error("no search case");
    const varied = vary(c.c, c.body, 7, ["added-fields"]).body as Record<string, Record<string, unknown>>;
    const documented = JSON.stringify(spec.doc);
    const extra = (obj: object, original: object) => Object.keys(obj).filter((k) => !(k in original));
    const original = c.body as Record<string, Record<string, unknown>>;
    const levels = [
      extra(varied, original),
      extra(varied.meta ?? {}, original.meta ?? {}),
      extra(varied.meta?.price_scope as object, original.meta?.price_scope as object),
      extra((varied.data as unknown as object[])[0] ?? {}, (original.data as unknown as object[])[0] ?? {}),
    ];
    for (const names of levels) {
      expect(names).toHaveLength(1);
      expect(documented).not.toContain(`"${names[0]}"`);
    }
  });

  it("never drops a field a rule holding for the request reads (content of rank at limit 51, price under a price filter)", () => {
    const rank = cases.find(
      (x) => x.c.operation.operationId === "getRank" && x.c.query.get("limit") === "51",
    );
    const priced = cases.find((x) => x.c.operation.operationId === "searchAlerts" && x.c.query.has("mip"));
    if (!rank || !priced) throw new Error("cases missing");
    expect(keptPointers(spec, rank.c.operation, rank.c.parsed)).toContain("/data/*/content");
    expect(keptPointers(spec, priced.c.operation, priced.c.parsed)).toContain("/data/*/price");
    for (const seed of [1, 2, 3, 4, 5]) {
      const r = vary(rank.c, rank.body, seed, ["content-omitted", "optional-absent"]).body as {
        data: object[];
      };
      expect(r.data.every((a) => "content" in a)).toBe(true);
      const p = vary(priced.c, priced.body, seed, ["optional-absent"]).body as { data: object[] };
      expect(p.data.every((a) => "price" in a)).toBe(true);
    }
  });

  it("reorders keys so the client sees it", () => {
    const c = cases.find((x) => x.c.operation.operationId === "getMeta");
    if (!c) throw new Error("no meta case");
    const varied = vary(c.c, c.body, 11, ["keys-shuffled"]);
    expect(varied.applied).toEqual(["keys-shuffled"]);
    expect(JSON.stringify(varied.body)).not.toBe(JSON.stringify(c.body));
    expect(varied.body).toEqual(c.body);
  });

  it("names the table's body variations only (ids are stable and listed once)", () => {
    const ids = VARIATIONS.map((v) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of BODY_IDS) expect(ids).toContain(id);
    for (const v of VARIATIONS) expect(v.allowed(spec), `${v.id}: ${v.allowedBy}`).toBe(true);
  });
});
