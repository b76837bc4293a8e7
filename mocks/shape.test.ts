import { beforeAll, describe, expect, it } from "vitest";
import { checkRule } from "../src/rules/evaluate.ts";
import { get } from "../src/rules/pointer.ts";
import { loadSpec } from "../src/spec/load.ts";
import { parseRequest } from "../src/spec/request.ts";
import type { Spec } from "../src/spec/spec.ts";
import { type ShapeContext, shapingRules } from "./enforce.ts";
import { everyAcceptedRequest } from "./request-cases.ts";
import { shapeAnswer } from "./shape.ts";

// 2026-11-26 06:00 in Shanghai: the static examples (dated 2026-11-25 10:xx) are "yesterday".
const NOW = 1795644000;

let spec: Spec;
beforeAll(async () => {
  spec = await loadSpec();
});

function ctxFor(operationId: string, query: Record<string, string>, pathParams = {}): ShapeContext {
  const operation = spec.operation(operationId);
  const request = parseRequest(spec, operation, new URLSearchParams(query), pathParams);
  expect(request.errors).toEqual([]);
  return { spec, operation, request, now: NOW };
}

/** The documented 200 example Prism would serve after the layer's `Prefer: example=` choice. */
/**
 * The name of the documented 200 example that survives this request's rules best (most items
 * left after shaping), for Prism's `Prefer: example=`. Prism alone always serves the first
 * example, which is the wrong structure for e.g. `feed?type=zdm`. Undefined when the
 * operation has at most one example.
 */
function pickExample(ctx: ShapeContext): string | undefined {
  const response = ctx.spec.response(ctx.operation.operationId, 200);
  const media = response && Object.values(response.content)[0];
  const examples = Object.entries(media?.examples ?? {});
  if (examples.length < 2) return undefined;
  const at = shapingRules(ctx).find((r) => r.then.each)?.then.each?.at ?? "/data";
  let best: { name: string; score: number } | undefined;
  for (const [name, example] of examples) {
    const items = get(shapeAnswer(ctx, example.value), at);
    const score = Array.isArray(items) ? items.length : 0;
    if (!best || score > best.score) best = { name, score };
  }
  return best?.name;
}

function served(ctx: ShapeContext): unknown {
  const media = Object.values(ctx.spec.response(ctx.operation.operationId, 200)?.content ?? {})[0];
  const examples = media?.examples ?? {};
  const name = pickExample(ctx) ?? Object.keys(examples)[0] ?? "";
  return shapeAnswer(ctx, structuredClone(examples[name]?.value));
}

describe("shapeAnswer over the spec's own examples", () => {
  it("gives a schema-valid body satisfying every single-exchange rule, for every accepted boundary request", () => {
    const cases = everyAcceptedRequest(spec);
    expect(cases.length).toBeGreaterThan(60);
    const failures: string[] = [];
    for (const c of cases) {
      const media = Object.keys(spec.response(c.operation.operationId, 200)?.content ?? {})[0] ?? "";
      if (!media.includes("json")) continue;
      const ctx: ShapeContext = { spec, operation: c.operation, request: c.parsed, now: NOW };
      const body = served(ctx);
      const validate = spec.responseValidator(c.operation.operationId, 200, media);
      if (validate && !validate(body))
        failures.push(`${c.path}?${c.query}: ${JSON.stringify(validate.errors)}`);
      for (const rule of c.operation.rules) {
        if (rule.then.ignores || rule.then.uniformBody || rule.when?.credentials) continue;
        const exchange = {
          operation: c.operation,
          request: c.parsed,
          status: 200,
          mediaType: "application/json",
          body,
          sentAt: NOW,
          receivedAt: NOW,
        };
        for (const f of checkRule(spec, rule, exchange)) {
          failures.push(`${c.path}?${c.query} ${f.ruleId}: ${f.message}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  // biome-ignore lint/suspicious/noExplicitAny: the cases read into arbitrary example bodies
  const table: [string, { op: string; query: Record<string, string>; want: (body: any) => void }][] = [
    [
      "rank limit <= 50 strips content",
      {
        op: "getRank",
        query: { act: "zuotian", limit: "50" },
        want: (b) => {
          for (const i of b.data) expect(i).not.toHaveProperty("content");
        },
      },
    ],
    [
      "rank limit > 50 adds content, from another example of the same alert",
      {
        op: "getRank",
        query: { act: "zuotian", limit: "51" },
        want: (b) => {
          expect(b.data.length).toBe(2);
          expect(b.data[0].content).toContain("PLUS会员");
        },
      },
    ],
    [
      "rank re-dates entries into a window the static example misses, keeping local date and time in step",
      {
        op: "getRank",
        query: { act: "yixiaoshi" },
        want: (b) => {
          expect(b.data.length).toBe(2);
          expect(b.data[0]).toMatchObject({
            shijianchuo: NOW - 60,
            datetime: "2026-11-26",
            shorttime: "05:59",
          });
          expect(b.meta.window).toEqual({ from: NOW - 3600, to: NOW, timezone: "Asia/Shanghai" });
        },
      },
    ],
    [
      "rank limit 1 trims data and counts it",
      {
        op: "getRank",
        query: { act: "zuotian", limit: "1" },
        want: (b) => expect([b.data.length, b.meta.count, b.meta.limit]).toEqual([1, 1, 1]),
      },
    ],
    [
      "feed type=zdm serves the zdm example, with its retention",
      {
        op: "getFeed",
        query: { type: "zdm" },
        want: (b) => expect([b.data[0].type, b.meta.retention, b.meta.type]).toEqual(["smzdm", 30, "zdm"]),
      },
    ],
    [
      "feed of an unpriced category relabels items and strips their price",
      {
        op: "getFeed",
        query: { cate: "douban" },
        want: (b) => {
          expect(b.data.length).toBeGreaterThan(0);
          for (const i of b.data)
            expect([i.cateid, i.catename, "price" in i]).toEqual(["23", "豆瓣线报", false]);
        },
      },
    ],
    [
      "search price filter on an unpriced category: empty data, price_scope from x-categories",
      {
        op: "searchAlerts",
        query: { mip: "10", cate: "shangjin" },
        want: (b) => {
          expect(b.data).toEqual([]);
          expect(b.meta.price_scope.priced_categories).toEqual(["10", "30"]);
          expect(b.meta).toMatchObject({ mip: 10, mxp: null, cate: "shangjin", q: null });
        },
      },
    ],
    [
      "search keeps only items holding a q word",
      {
        op: "searchAlerts",
        query: { q: "iphone" },
        want: (b) => expect([b.data, b.meta.total]).toEqual([[], 0]),
      },
    ],
    [
      "search page past the end is empty but counts the total",
      {
        op: "searchAlerts",
        query: { q: "立减金", page: "2" },
        want: (b) => expect([b.data.length, b.meta.total, b.meta.page]).toEqual([0, 1, 2]),
      },
    ],
    [
      "shenghuo without with_cates drops cates",
      { op: "listActivities", query: {}, want: (b) => expect(b).not.toHaveProperty("cates") },
    ],
    [
      "shenghuo with_cates=1 keeps cates",
      {
        op: "listActivities",
        query: { with_cates: "1" },
        want: (b) => expect(b.cates.length).toBeGreaterThan(0),
      },
    ],
    [
      "shenghuo pageSize 1 trims",
      {
        op: "listActivities",
        query: { pageSize: "1" },
        want: (b) => expect([b.data.length, b.meta.pageSize]).toEqual([1, 1]),
      },
    ],
    [
      "meta lists every window, category and limit of the spec",
      {
        op: "getMeta",
        query: {},
        want: (b) => {
          expect(b.data.rank_types).toHaveLength(13);
          expect(b.data.categories).toHaveLength(14);
          expect(b.data.limits.getRank.limit).toEqual({ minimum: 1, maximum: 300, default: 20 });
          expect(b.meta.generated_at).toBe(NOW);
        },
      },
    ],
  ];
  it.each(table)("%s", (_, { op, query, want }) => {
    want(served(ctxFor(op, query)));
  });

  it("drops an item of the other shape instead of relabelling it (dynamic mode mixes zdm items into category feeds)", () => {
    const examples = (spec.doc.components as { examples: Record<string, { value: { data: unknown[] } }> })
      .examples;
    const [zdm] = structuredClone(examples.FeedZdm?.value.data ?? []);
    const [alert] = structuredClone(examples.FeedCategory?.value.data ?? []);
    const ctx = ctxFor("getFeed", { cate: "zuankeba" });
    const body = shapeAnswer(ctx, {
      data: [zdm, alert],
      meta: { cate: "x", limit: 20, count: 2, retention: 20 },
    });
    expect((body as { data: { cateid?: string }[] }).data.map((i) => i.cateid)).toEqual(["16"]);
    const validate = spec.responseValidator("getFeed", 200, "application/json");
    expect(validate?.(body), JSON.stringify(validate?.errors)).toBe(true);
  });
});
