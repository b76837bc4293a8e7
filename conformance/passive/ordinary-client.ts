/**
 * The traffic of an ordinary client, for the passive tests: the typed client (src/client) calling
 * every operation the way an app does, its mistakes included (a limit out of range, a wrong or
 * missing key), and going back and forth as users do (page 2 and back to page 1, a longer list
 * and back, a category and back to the whole site), which gives the cross-answer rules their A,
 * B, A′. Nothing here knows the rules: it is an app's traffic, not the suite's plan.
 */
import { createDealClient, type DealClient } from "../../src/client/client.ts";
import { DealApiError } from "../../src/client/errors.ts";

type FeedCategory = NonNullable<Parameters<DealClient["feed"]>[0]>["cate"];

export interface OrdinaryAccount {
  uid: number;
  key: string;
}

/** Calls made, and the statuses they got (the app sees errors as DealApiError). */
export interface ClientRun {
  calls: number;
  statuses: number[];
}

/** A raw call of the typed client that throws on non-2xx, as its own methods do. */
async function unwrapped(call: Promise<{ response: Response; error?: unknown }>): Promise<unknown> {
  const { response, error } = await call;
  if (!response.ok) throw new DealApiError(response.status, error, response.statusText);
  return response;
}

export async function ordinaryClient(
  baseUrl: string,
  account: OrdinaryAccount,
  headers: Record<string, string> = {},
): Promise<ClientRun> {
  const fetchWith = (request: Request) => {
    for (const [k, v] of Object.entries(headers)) request.headers.set(k, v);
    return globalThis.fetch(request);
  };
  const client = createDealClient({ baseUrl, retry: { maxRetries: 0 }, fetch: fetchWith });
  const run: ClientRun = { calls: 0, statuses: [] };
  const call = async (f: () => Promise<unknown>) => {
    run.calls++;
    try {
      const body = await f();
      run.statuses.push(200);
      return body;
    } catch (err) {
      // An answer it could not read (a body that does not decode or parse): as an app does, it
      // shows an error and goes on. Statuses it records as 0.
      run.statuses.push(err instanceof DealApiError ? err.status : 0);
      return undefined;
    }
  };
  await call(() => client.meta());
  // A rank page, a longer one, and the first again (the user scrolled, then refreshed).
  await call(() => client.rank({ act: "ershisixiaoshi", limit: 10 }));
  await call(() => client.rank({ act: "ershisixiaoshi", limit: 60 }));
  await call(() => client.rank({ act: "ershisixiaoshi", limit: 10 }));
  await call(() => client.rank({ act: "jintian" }));
  await call(() => client.legacyRank("jintian"));
  // The whole-site feed, a category seen in it, and the whole site again.
  const feed = (await call(() => client.feed({ limit: 20 }))) as { data?: { cateid?: string }[] } | undefined;
  const cate = (feed?.data?.find((i) => i.cateid)?.cateid ?? "weibo") as FeedCategory;
  await call(() => client.feed({ cate }));
  await call(() => client.feed({ limit: 20 }));
  await call(() => client.feed({ cate, limit: 50 }));
  await call(() => client.feed({ type: "zdm", limit: 5 }));
  await call(() => client.feed({ type: "zdm", limit: 50 }));
  // Search: page 1, page 2, back to page 1; a price filter on a category without prices.
  await call(() => client.search({ q: "券" }));
  await call(() => client.search({ q: "券", page: 2 }));
  await call(() => client.search({ q: "券" }));
  await call(() => client.search({ mip: 10, cate: "douban" }));
  await call(() => client.search({ q: "红包", kp: "京东" }));
  await call(() => client.search({ cate: "weibo", mip: 5, mxp: 100 }));
  // Activities: with the category list, then filtered as a user picks a category and types a word.
  const activities = (await call(() => client.shenghuo({ with_cates: "1" }))) as
    | { cates?: { id?: string }[] }
    | undefined;
  const activityCate = activities?.cates?.[0]?.id ?? "waimai";
  await call(() => client.shenghuo({ cate: activityCate }));
  await call(() => client.shenghuo({ q: "外卖" }));
  await call(() => client.shenghuo({ pageSize: 100 }));
  await call(() => client.shenghuo({}));
  await call(() => client.shenghuo({ page: 2 }));
  await call(() => client.shenghuo({}));
  await call(() => client.rss({ cate: "weibo" }));
  await call(() => client.myFollow({ uid: account.uid }, account.key));
  await call(() => client.myPush({ uid: account.uid, limit: 5 }, account.key));
  // The app's mistakes: a limit out of range, no key (logged out), a wrong key, a key of nobody.
  await call(() => client.rank({ act: "jintian", limit: 301 }));
  await call(() =>
    unwrapped(client.api.GET("/api/v1/my/follow", { params: { query: { uid: account.uid } } })),
  );
  await call(() => unwrapped(client.api.GET("/api/v1/my/push", { params: { query: { uid: account.uid } } })));
  await call(() => client.myFollow({ uid: account.uid }, "0".repeat(32)));
  await call(() => client.myFollow({ uid: 999_999_998 }, "0".repeat(32)));
  await call(() => client.myPush({ uid: account.uid }, "f".repeat(32)));
  await call(() => client.myPush({ uid: 999_999_998 }, "f".repeat(32)));
  return run;
}
