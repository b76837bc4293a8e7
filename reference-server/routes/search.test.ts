import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import { Store } from "../db/store.ts";
import { dispatch } from "../http/dispatch.ts";
import { generatedDb, NOW_MS } from "../test/helpers.ts";
import type { RouteContext } from "./context.ts";

/** The search route's answers against its store: each search is computed until it has been asked twice. */
describe("search answers kept", () => {
  let ctx: RouteContext;
  beforeAll(async () => {
    ctx = {
      spec: await loadSpec(),
      store: new Store(await generatedDb(600, 5)),
      nowSeconds: () => NOW_MS / 1000,
    };
  });
  afterAll(() => ctx.store.db.close());

  const search = (url: string) => dispatch(ctx, () => undefined, url, { host: "x" }, "http://x");

  it("from a search's second build (Store.memo's second-build admission): a one-off search is not kept", () => {
    const counts = vi.spyOn(ctx.store, "countAlerts");
    const url = `/api/v1/search?q=${encodeURIComponent("京东")}&limit=5`;
    const first = search(url);
    const second = search(url);
    expect(counts).toHaveBeenCalledTimes(2);
    const third = search(url);
    expect(counts).toHaveBeenCalledTimes(2);
    expect(first.status).toBe(200);
    expect(String(second.body)).toBe(String(first.body));
    expect(String(third.body)).toBe(String(first.body));
    counts.mockRestore();
  });
});
