/**
 * Planted faulty clients: each breaks one x-client-rules rule the way real scripts do, so the
 * client judge can be shown to catch exactly that one. Test fixtures, not part of the package.
 * Each sends from its own loopback address (its own client IP) and sleeps on the fake clock the
 * mock runs on, so a minute of traffic takes milliseconds.
 */
import { type Got, httpGet } from "../../mocks/http-get.ts";

export interface PlantedRun {
  base: string;
  /** The source address: 127.0.0.x, one per client. */
  address: string;
  sleep(ms: number): Promise<void>;
  account: { uid: number; key: string };
}

const get = (run: PlantedRun, path: string, headers: Record<string, string> = {}): Promise<Got> =>
  httpGet(`${run.base}${path}`, {
    localAddress: run.address,
    headers: { "user-agent": "planted/1.0", ...headers },
  });

/** Spends the window's budget on valid requests, as a busy script does before it meets the limit. */
async function spendBudget(run: PlantedRun, limit: number): Promise<void> {
  for (let i = 0; i < limit; i++) await get(run, "/api/v1/meta");
}

/** A retry loop with its own fixed 300 ms backoff, deaf to Retry-After; gives up after two retries. */
export async function retryIgnoringRetryAfter(run: PlantedRun, limit: number): Promise<void> {
  await spendBudget(run, limit);
  for (let attempt = 0; attempt < 3; attempt++) {
    const res = await get(run, "/api/v1/feed?cate=weibo");
    if (res.status !== 429) return;
    await run.sleep(300);
  }
}

/** Treats a 429 as one more failed call and goes on with its list at its own pace. */
export async function ignoring429s(run: PlantedRun, limit: number): Promise<void> {
  for (let i = 0; i < limit + 20; i++) {
    await get(run, `/api/v1/rank?act=jintian&limit=${(i % 50) + 1}`);
    await run.sleep(100);
  }
}

/** Puts the key where a copied URL carries it: in the query string. */
export async function keyInQuery(run: PlantedRun): Promise<void> {
  await get(run, `/api/v1/my/follow?uid=${run.account.uid}&api_key=${run.account.key}`);
}

/** A search without a criterion, sent again on every tick as if the next answer could differ. */
export async function repeatingRefused(run: PlantedRun): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await get(run, "/api/v1/search?cate=weibo");
    await run.sleep(2000);
  }
}

/**
 * A client written against the answers it first saw: its parser refuses a field it does not know,
 * and on that error it asks again at once (twice), then gives up.
 */
export async function strictParser(
  get: (path: string) => Promise<Got>,
  sleep: (ms: number) => Promise<void>,
) {
  const path = "/api/v1/feed?cate=weibo&limit=5";
  const known = new Set(Object.keys(itemsOf(await get(path))[0] ?? {}));
  await sleep(5000);
  for (let attempt = 0; attempt < 3; attempt++) {
    const unknown = itemsOf(await get(path)).flatMap((item) =>
      Object.keys(item).filter((k) => !known.has(k)),
    );
    if (unknown.length === 0) return;
    await sleep(100);
  }
}

/** The same polling, reading only the fields it uses: what the contract asks of clients. */
export async function tolerantParser(
  get: (path: string) => Promise<Got>,
  sleep: (ms: number) => Promise<void>,
) {
  const path = "/api/v1/feed?cate=weibo&limit=5";
  for (let i = 0; i < 3; i++) {
    for (const item of itemsOf(await get(path)))
      if (typeof item.title !== "string") throw new Error("no title");
    await sleep(5000);
  }
}

function itemsOf(res: Got): Record<string, unknown>[] {
  return (res.json() as { data: Record<string, unknown>[] }).data;
}

/**
 * The same strict parser polling a live mock: `known` is the field list it was generated with; an
 * answer holding another field is an error, asked again at once (twice), then it stops. It does
 * honour Retry-After: its one fault is the unknown field.
 */
export async function strictPoller(
  run: PlantedRun,
  known: ReadonlySet<string>,
  polls: number,
): Promise<void> {
  const path = "/api/v1/feed?cate=weibo&limit=5";
  for (let poll = 0, failures = 0; poll < polls && failures < 3; poll++) {
    const res = await get(run, path);
    if (res.status === 429) {
      await run.sleep(Number(res.headers["retry-after"] ?? "1") * 1000);
      continue;
    }
    const unknown = itemsOf(res).some((item) => Object.keys(item).some((k) => !known.has(k)));
    failures = unknown ? failures + 1 : 0;
    await run.sleep(unknown ? 100 : 5000);
  }
}
