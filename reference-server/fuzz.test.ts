import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuiltApp } from "./index.ts";
import { DEMO_KEY, injectTransport, specViolations, type Transport, testApp } from "./test/helpers.ts";

/** Fuzzed query strings never produce a 5xx, and every answer still conforms to the spec. */
describe("fuzzed requests", () => {
  let built: BuiltApp;
  let send: Transport;

  beforeAll(async () => {
    built = await testApp({ size: 500, rateLimit: { limit: 1_000_000 } });
    send = injectTransport(built.app);
  });
  afterAll(() => built.close());

  it("never answer 5xx and always validate", async () => {
    const spec = built.spec;
    const names = [
      ...new Set(spec.operations.flatMap((op) => op.parameters.map((p) => p.name))),
      "page",
      "x",
    ];
    const acts = Object.keys(spec.rankWindows.windows);
    const paths = fc.oneof(
      fc.constantFrom(...spec.operations.filter((op) => !op.path.includes("{")).map((op) => op.path)),
      fc.constantFrom(...acts, "", "x%", "%E0", "..", "a.b").map((act) => `/plus/json/rank/${act}.json`),
      fc.constantFrom("/", "/api", "/api/v1", "/api/v2/meta", "/rss.php/x", "/api/v1/rank/", "//api/v1/meta"),
    );
    const value = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.string({ unit: "grapheme", maxLength: 12 }),
      fc.integer({ min: -5, max: 2000 }).map(String),
      fc.double({ noNaN: false }).map(String),
      fc.constantFrom(
        "",
        "all",
        "zdm",
        "1",
        "0",
        "京东",
        "京东|红包",
        "#|\n",
        "a".repeat(60),
        "10.5",
        "1e3",
        "-0",
        "weibo",
        "23",
      ),
      fc.string({
        unit: fc.constantFrom("|", "#", "\n", " ", "京", "A", "%", "&", "=", "+", "\u0000"),
        maxLength: 30,
      }),
    );
    const pair = fc.tuple(
      fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 6 })),
      value,
      fc.boolean(),
    );
    const query = fc.array(pair, { maxLength: 6 }).map((pairs) =>
      pairs
        // Mostly well-formed escapes; sometimes raw text, as a careless client sends it.
        .map(([k, v, raw]) =>
          raw ? `${k}=${v.replace(/[#\s]/g, "")}` : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`,
        )
        .join("&"),
    );
    const key = fc.constantFrom(undefined, DEMO_KEY, "x", "F".repeat(32));

    await fc.assert(
      fc.asyncProperty(paths, query, key, async (path, q, apiKey) => {
        const url = q ? `${path}?${q}` : path;
        const reply = await send(url, { headers: apiKey === undefined ? {} : { "x-api-key": apiKey } });
        expect(reply.status, url).toBeLessThan(500);
        expect(specViolations(spec, url, reply), url).toEqual([]);
      }),
      { seed: 20261125, numRuns: 400 },
    );
  });
});
