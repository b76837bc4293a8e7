import { afterAll, beforeAll, expect, it } from "vitest";
import type { BuiltApp } from "./index.ts";
import { testApp } from "./test/helpers.ts";

let built: BuiltApp;
beforeAll(async () => {
  built = await testApp({ size: 300 });
});
afterAll(() => built.close());

it("serves the API reference page at /docs, listing every operation, with CORS", async () => {
  const res = await built.app.inject({ method: "GET", url: "/docs" });
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^text\/html/);
  expect(res.headers["access-control-allow-origin"]).toBe("*");
  for (const op of built.spec.operations) expect(res.body).toContain(op.operationId);
}, 60_000);
