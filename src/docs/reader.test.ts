/** The reference page's view of the spec: samples that work, rules in words, a usable server. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "../../reference-server/index.ts";
import { DEMO_KEY, testApp } from "../../reference-server/test/helpers.ts";
import { createDealClient } from "../client/index.ts";
import { loadSpec } from "../spec/load.ts";
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

  it("leaves the spec itself unchanged", () => {
    expect((spec.raw as { servers: { url: string }[] }).servers[0]?.url).toBe("{base_url}");
  });
});
