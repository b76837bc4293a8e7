/**
 * Passive judging proves itself on the suite's planted bugs: an ordinary client (the typed client,
 * every operation) talks through `dealkit proxy`, and the planted proxy (one bug each) sits between
 * it and the reference server. Every bug the client's traffic shows is flagged by exactly its
 * checks; no bug makes another check fail; the HAR recorded on the way, judged by `dealkit judge`,
 * gives the same findings.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDocument } from "../../src/spec/load.ts";
import { SPEC_PATH } from "../../src/spec/paths.ts";
import { startProxy } from "../planted/proxy.ts";
import { PLANTED, type PlantedBug } from "../planted/variants.ts";
import type { RunReport } from "../runner/report.ts";
import { startBundledServer, type Target } from "../runner/target.ts";
import { passiveSetup, TrafficJudge } from "./judge-traffic.ts";
import { inlineJudging } from "./judging.ts";
import { harSink } from "./live.ts";
import { judgeCommand } from "./main.ts";
import { ordinaryClient } from "./ordinary-client.ts";
import { startPassiveProxy } from "./proxy.ts";

/**
 * What the ordinary client's traffic cannot show of a bug, and why (everything else of
 * `bug.expect` must be flagged). The suite finds these with requests or orchestration of its own.
 */
const NOT_IN_TRAFFIC: Record<string, { checks: string[]; why: string }> = {
  "search-without-criterion-served": { checks: ["*"], why: "the app never searches without a criterion" },
  "retry-after-missing": { checks: ["*"], why: "no 429 in the traffic" },
  "server-error-on-long-value": { checks: ["*"], why: "the app sends no value over 40 characters" },
  "rank-act-defaulted": { checks: ["*"], why: "the app always sends act" },
  "feed-pages": { checks: ["*"], why: "the app sends no page to the feed" },
  "feed-zdm-with-cate-served": { checks: ["*"], why: "the app never combines cate with type=zdm" },
  "search-bounds-swapped": { checks: ["*"], why: "the app's price bounds are ordered" },
  "compressed-unasked": { checks: ["*"], why: "the app's fetch always offers gzip" },
  "long-url-refused-by-proxy": { checks: ["*"], why: "the app sends no request line over 4 KB" },
  "waf-blocks-pipes": { checks: ["*"], why: "the app searches one word at a time" },
  "cache-ignores-key": {
    checks: ["rate-limit", "rule:my-push-credentials"],
    why: "the app asks my/push with and without the key at different URLs; the limit needs the 429 burst",
  },
  // The limit itself needs the suite's 429 burst (not exercised: passive).
  ...Object.fromEntries(
    [
      "no-rate-limit",
      "preflight-counted",
      "forwarded-for-trusted",
      "rss-not-limited",
      "refused-counted",
      "client-ips-hidden",
      "leaky-bucket",
      "search-costs-two",
    ].map((n) => [n, { checks: ["rate-limit"], why: "the rate limit needs the suite's 429 burst" }]),
  ),
  // Relations need A, B, A′ from one client: the app pages and widens, it does not do these.
  "feed-oldest-first": { checks: ["relation:feed-limit-prefix"], why: "no feed limit sequence" },
  "feed-count-over-limit": { checks: ["relation:feed-limit-prefix"], why: "no feed limit sequence" },
  "search-ignores-price": {
    checks: ["rule:search-price-bounds-ordered"],
    why: "the app's price bounds never form an empty range",
  },
  "search-ignores-kp": { checks: ["query-decoding"], why: "the app's kp always decodes" },
  "search-ignores-q": { checks: ["relation:search-block-only-removes"], why: "no block-word sequence" },
  "search-count-over-limit": { checks: ["relation:search-limit-prefix"], why: "no search limit sequence" },
  "search-first-word-only": { checks: ["*"], why: "no OR-word sequence" },
  "search-block-drops-more": { checks: ["*"], why: "no block-word sequence" },
  "search-price-bounds-exclusive": { checks: ["*"], why: "no price-bounds sequence" },
  "search-short-page-starts-late": { checks: ["*"], why: "no search limit sequence" },
  "rank-wide-window-misses-last-hour": { checks: ["*"], why: "no window-widening sequence" },
  "feed-short-snapshot-starts-late": { checks: ["*"], why: "no feed limit sequence" },
  "shenghuo-keyword-misses-newest": { checks: ["*"], why: "no keyword sequence" },
  // The contract's last open points (planted/contract-points.ts): the app's fetch does none of these.
  "head-refused": { checks: ["*"], why: "the app sends no HEAD" },
  "plain-options-refused": { checks: ["*"], why: "the app's OPTIONS are preflights" },
  "query-decoded-leniently": { checks: ["*"], why: "the app's queries always decode" },
  "criterion-after-parameters": { checks: ["*"], why: "the app never searches without a criterion" },
  "words-trimmed-of-white-space": { checks: ["*"], why: "the app's words hold no U+0085 or U+FEFF" },
  "price-bounds-binary": { checks: ["*"], why: "the app's price bounds have two decimals at most" },
  "uid-read-as-integer": { checks: ["*"], why: "the app writes its uid as it is" },
  "parameters-before-limit": { checks: ["rate-limit"], why: "the rate limit needs the suite's 429 burst" },
};

/** The checks a bug must fail passively. */
function passiveExpect(bug: PlantedBug): string[] {
  const unseen = NOT_IN_TRAFFIC[bug.name]?.checks ?? [];
  return unseen.includes("*") ? [] : bug.expect.filter((c) => !unseen.includes(c));
}

let upstream: Target;
let dir: string;
let specWithoutLouzhu: string;

beforeAll(async () => {
  upstream = await startBundledServer();
  dir = await mkdtemp(join(tmpdir(), "dealkit-passive-planted-"));
  const doc = parseDocument(await readFile(SPEC_PATH, "utf8")) as {
    components: { schemas: { Alert: { required: string[] } } };
  };
  doc.components.schemas.Alert.required = doc.components.schemas.Alert.required.filter((f) => f !== "louzhu");
  specWithoutLouzhu = join(dir, "openapi.json");
  await writeFile(specWithoutLouzhu, JSON.stringify(doc));
});

afterAll(async () => {
  await upstream?.close();
  await rm(dir, { recursive: true, force: true });
});

const failed = (report: RunReport) => report.checks.filter((c) => c.status === "fail").map((c) => c.name);
const keys = (report: RunReport) =>
  report.checks.flatMap((c) => c.violations.map((v) => `${v.check} ${v.code} ${v.operation}`)).sort();

describe("planted bugs behind dealkit proxy, an ordinary client's traffic", () => {
  it.each(PLANTED.map((bug, i) => [bug.name, bug, i] as const))(
    "%s: flagged by exactly its checks the traffic shows; the recorded HAR judges the same",
    async (name, bug, i) => {
      const planted = await startProxy(upstream.baseUrl, bug.mutation, i + 1);
      const options = {
        ...(bug.rate ? { rate: bug.rate } : {}),
        ...(bug.specWithoutLouzhu ? { specPath: specWithoutLouzhu } : {}),
      };
      const judge = new TrafficJudge(await passiveSetup(options), {
        target: planted.url,
        baseUrl: planted.url,
      });
      const har = join(dir, `${name}.har`);
      const recording = await harSink(har);
      const proxy = await startPassiveProxy({
        upstream: planted.url,
        judging: inlineJudging(judge),
        onObserved: (observed, traffic) => recording.observe(observed, traffic),
      });
      try {
        const account = upstream.account as { uid: string; key: string };
        await ordinaryClient(proxy.url, { uid: Number(account.uid), key: account.key });
      } finally {
        await proxy.close();
        await planted.close();
        await recording.close();
      }
      const live = judge.report();
      const titles = JSON.stringify(live.checks.flatMap((c) => c.violations.map((v) => v.title)));
      expect(failed(live), titles).toEqual(passiveExpect(bug));
      const offline = await judgeCommand({ file: har, reports: [], ...options, out: () => {} });
      expect(failed(offline.report)).toEqual(failed(live));
      expect(keys(offline.report)).toEqual(keys(live));
      expect(offline.code).toBe(failed(live).length > 0 ? 1 : 0);
    },
  );
});
