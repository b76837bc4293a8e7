/** The reference page's view of the spec: samples that work, rules in words, a usable server. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../reference-server/index.ts";
import { DEMO_KEY, testApp } from "../../reference-server/test/helpers.ts";
import { createDealClient } from "../client/index.ts";
import { loadSpec } from "../spec/load.ts";
import { answerText } from "./examples-text.ts";
import { CLIENT_METHODS, READER_BASE_URL, readerDocument } from "./reader.ts";

const spec = await loadSpec();
const doc = readerDocument(spec) as unknown as {
  servers: { url: string }[];
  info: { description: string };
  paths: Record<
    string,
    { get: { description: string; "x-codeSamples": { label: string; source: string }[] } }
  >;
};
let built: BuiltApp;
beforeAll(async () => {
  built = await testApp({ size: 300, rateLimit: false });
});
afterAll(() => built?.close());

describe("readerDocument", () => {
  it("names a server a client can call", () => {
    expect(doc.servers.map((s) => s.url)).toEqual([READER_BASE_URL]);
  });

  it.each(spec.operations.map((op) => [op.operationId, op] as const))(
    "%s: its curl sample is answered 200 by the reference server",
    async (_, op) => {
      const curl = doc.paths[op.path]?.get["x-codeSamples"].find((s) => s.label === "curl")?.source ?? "";
      const url = /'(http[^']+)'/.exec(curl)?.[1] ?? "";
      expect(url.startsWith(READER_BASE_URL)).toBe(true);
      const headers = op.secured ? { "x-api-key": DEMO_KEY } : {};
      if (op.secured) expect(curl).toContain('-H "X-API-Key: $DEALKIT_API_KEY"');
      const res = await built.app.inject({ url: url.slice(READER_BASE_URL.length), headers });
      expect(res.statusCode, res.body).toBe(200);
    },
  );

  it.each(spec.operations.map((op) => [op.operationId, op] as const))(
    "%s: its typed-client sample calls a method the client has",
    (_, op) => {
      const sample =
        doc.paths[op.path]?.get["x-codeSamples"].find((s) => s.label === "typed client")?.source ?? "";
      const method = CLIENT_METHODS[op.operationId] ?? "";
      expect(sample).toContain(`api.${method}(`);
      const client = createDealClient({ baseUrl: READER_BASE_URL }) as unknown as Record<string, unknown>;
      expect(typeof client[method]).toBe("function");
    },
  );

  it("lists each operation's rules in its description", () => {
    for (const op of spec.operations) {
      const description = doc.paths[op.path]?.get.description ?? "";
      for (const rule of op.rules) expect(description, op.operationId).toContain(rule.summary);
    }
  });

  it("shows each rule's and relation's examples under it: every answer's body, status and note", () => {
    for (const op of spec.operations) {
      const description = doc.paths[op.path]?.get.description ?? "";
      for (const r of [...op.rules, ...op.relations]) {
        const { satisfies = [], violates = [] } = r.examples ?? {};
        const section = description.slice(description.indexOf(`- ${r.summary}`));
        const items = section.split("\n").slice(1);
        const own = items.slice(
          0,
          items.findIndex((l) => !l.startsWith("  - ")),
        );
        expect(own.filter((l) => l.startsWith("  - satisfies: ")).length, r.id).toBe(satisfies.length);
        expect(own.filter((l) => l.startsWith("  - violates: ")).length, r.id).toBe(violates.length);
        for (const example of [...satisfies, ...violates]) {
          const answers =
            "first" in example
              ? [example.first, example.second]
              : "answers" in example
                ? example.answers
                : [example];
          for (const a of answers) {
            const body = a.body === undefined ? "" : ` \`${JSON.stringify(a.body)}\``;
            expect(own.join("\n"), r.id).toContain(` → ${a.status}${body}`);
          }
          if (example.note) expect(own.join("\n"), r.id).toContain(`(${example.note})`);
        }
      }
    }
  });

  it("renders an example answer as its request, status and body", () => {
    const op = spec.operation("getRank");
    const answer = {
      query: { act: "yixiaoshi", limit: 20 },
      time: 1768449600,
      status: 200,
      body: { data: [] },
    };
    expect(answerText(op, answer)).toBe(
      '`GET /api/v1/rank?act=yixiaoshi&limit=20` (at 2026-01-15T04:00:00Z) → 200 `{"data":[]}`',
    );
    const legacy = spec.operation("getLegacyRankFile");
    expect(answerText(legacy, { path: { act: "jintian" }, status: 200, body: [] })).toBe(
      "`GET /plus/json/rank/jintian.json` → 200 `[]`",
    );
  });

  it("shows a relation's second answer on the operation it crosses to", () => {
    const legacy = spec.operation("getLegacyRankFile");
    const description = String(doc.paths[legacy.path]?.get.description ?? "");
    expect(description).toContain(
      '`GET /plus/json/rank/jintian.json` → 200 `[{"id":3,"comments":9,"shijianchuo":1768440000},{"id":1,"comments":5,"shijianchuo":1768445000}]`, then `GET /api/v1/rank?act=jintian&limit=50` → 200',
    );
  });

  it("leaves the spec itself unchanged", () => {
    expect((spec.raw as { servers: { url: string }[] }).servers[0]?.url).toBe("{base_url}");
  });
});
