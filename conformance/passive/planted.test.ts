/**
 * Passive judging proves itself on the suite's planted bugs: an ordinary client (the typed client,
 * every operation) talks through `dealkit proxy`, and the planted proxy (one bug each) sits between
 * it and the reference server. Every bug the client's traffic shows is flagged by exactly its
 * checks; no bug makes another check fail; the HAR recorded on the way, judged by `dealkit judge`,
 * gives the same findings. Every row first shows its bug took effect: the planted proxy changed
 * at least one answer (compared with the correct server's), so a row expecting no finding is
 * a finding the passive judge cannot make, not a bug that never happened.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpec, parseDocument } from "../../src/spec/load.ts";
import { SPEC_PATH } from "../../src/spec/paths.ts";
import { startProxy, type Tally } from "../planted/proxy.ts";
import { PLANTED, type PlantedBug } from "../planted/variants.ts";
import { FIXED_CHECKS } from "../registry.ts";
import type { RunReport } from "../runner/report.ts";
import { startBundledServer, type Target } from "../runner/target.ts";
import { applicability } from "./applicability.ts";
import { passiveSetup, TrafficJudge } from "./judge-traffic.ts";
import { inlineJudging } from "./judging.ts";
import { harSink } from "./live.ts";
import { judgeCommand } from "./main.ts";
import { ordinaryClient } from "./ordinary-client.ts";
import { startPassiveProxy } from "./proxy.ts";

/**
 * What the ordinary client's traffic cannot show of a bug, and why (everything else of
 * `bug.expect` must be flagged). The suite finds these with requests or orchestration of its own.
 * A bug the app's traffic never meets is not here but in BEYOND_THE_APP.
 */
const NOT_IN_TRAFFIC: Record<string, { checks: string[]; why: string }> = {
  "cache-ignores-key": {
    checks: ["rate-limit", "rule:my-push-credentials"],
    why: "the app asks my/push with and without the key at different URLs; the limit needs the 429 burst",
  },
  // The limit itself needs the suite's 429 burst (not exercised: passive).
  ...Object.fromEntries(
    ["rss-not-limited", "leaky-bucket", "search-costs-two", "search-costs-two-unseen"].map((n) => [
      n,
      { checks: ["rate-limit"], why: "the rate limit needs the suite's 429 burst" },
    ]),
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
  "search-count-over-limit": {
    checks: ["relation:search-limit-prefix", "relation:search-last-page-count"],
    why: "no search limit sequence, no last page asked",
  },
  "shenghuo-count-over-page-size": {
    checks: ["relation:shenghuo-last-page-count"],
    why: "no last page asked",
  },
  "search-page-ignored": {
    checks: ["relation:search-last-page-count", "relation:search-after-last-page-empty"],
    why: "no last page asked, nor the page after it",
  },
  "shenghuo-page-ignored": {
    checks: ["relation:shenghuo-last-page-count", "relation:shenghuo-after-last-page-empty"],
    why: "no last page asked, nor the page after it",
  },
  "search-last-page-short": { checks: ["*"], why: "no last page asked" },
  "shenghuo-last-page-short": { checks: ["*"], why: "no last page asked" },
  "shenghuo-keyword-name-only": { checks: ["*"], why: "no keyword sequence" },
  "search-first-word-only": { checks: ["*"], why: "no OR-word sequence" },
  "search-block-drops-more": { checks: ["*"], why: "no block-word sequence" },
  "search-price-bounds-exclusive": { checks: ["*"], why: "no price-bounds sequence" },
  "rank-wide-window-misses-last-hour": { checks: ["*"], why: "no window-widening sequence" },
  "feed-short-snapshot-starts-late": { checks: ["*"], why: "no feed limit sequence" },
  "shenghuo-keyword-misses-newest": { checks: ["*"], why: "no keyword sequence" },
  "search-total-capped": { checks: ["*"], why: "the app never asks the page after the last" },
  "shenghuo-total-capped": { checks: ["*"], why: "the app never asks the page after the last" },
  // The app's wrong keys are served: a 200 of the uid's stream, as the owner's would be.
  "key-ignored": {
    checks: ["*"],
    why: "traffic does not say which key is the uid's: a wrong key served looks like the owner served; the suite's credential variants after the owner's request show it",
  },
  // The contract's last open points (planted/contract-points.ts): the app's fetch does none of these.
};

/** A request an app does not send, sent `times` times (raw: nothing added, nothing decoded). */
interface Extra {
  path: string;
  method?: string;
  headers?: Record<string, string>;
  times?: number;
  /** Another client's request sent straight to the planted server, not through the proxy. */
  direct?: boolean;
  /** Milliseconds to wait before each. */
  pauseMs?: number;
  /** Sent with the demo account's key (X-API-Key), its uid written with a leading zero. */
  withKey?: boolean;
}

const LONG_WORD = "京东".repeat(21);

/**
 * Where the ordinary client never meets a bug (`why`: the proxy changed none of its answers), the
 * row sends the few requests an app does not, after the app's traffic, so that every row shows
 * its bug took effect: the checks they make fail are given (`expect`); a bug whose check needs the
 * suite's own orchestration (the 429 burst, an A, B, A′ sequence) is shown to take effect and to
 * raise no false finding.
 */
const BEYOND_THE_APP: Record<string, { why: string; extras: Extra[]; expect: string[] }> = {
  "search-without-criterion-served": {
    why: "the app never searches without a criterion",
    extras: [{ path: "/api/v1/search?cate=all" }],
    expect: ["rule:search-needs-criterion"],
  },
  "retry-after-missing": {
    why: "no 429 in the app's traffic",
    extras: [{ path: "/api/v1/meta", times: 70 }],
    expect: ["response-headers"],
  },
  "no-rate-limit": {
    why: "the app stays under the limit; the limit needs the suite's 429 burst",
    extras: [{ path: "/api/v1/meta", times: 70 }],
    expect: [],
  },
  "preflight-counted": {
    why: "the app (no browser) sends no preflight; the limit needs the suite's 429 burst",
    extras: [
      {
        path: "/api/v1/feed",
        method: "OPTIONS",
        headers: { origin: "https://app.example", "access-control-request-method": "GET" },
      },
    ],
    expect: [],
  },
  "forwarded-for-trusted": {
    why: "the app sends no X-Forwarded-For; the limit needs the suite's 429 burst",
    extras: [{ path: "/api/v1/meta", headers: { "x-forwarded-for": "203.0.113.9" } }],
    expect: [],
  },
  // Refused, then knocking past the planted limiter's 4-second window: a correct one lets it in.
  "refused-counted": {
    why: "the app is never refused; the limit needs the suite's 429 burst",
    extras: [
      { path: "/api/v1/meta", times: 65 },
      { path: "/api/v1/meta", times: 12, pauseMs: 500 },
    ],
    expect: [],
  },
  // Past its boundary (9.5 s after the app's first request), within a sliding window of the app's last requests.
  "fixed-window": {
    why: "the app stays under the limit; the limit's shape needs the suite's 429 burst and its wait",
    extras: [{ path: "/api/v1/meta", pauseMs: 9600 }],
    expect: [],
  },
  // Another client of the same server: a limiter counting every client as one counts it with the app.
  "client-ips-hidden": {
    why: "the app is one client; the limit needs the suite's 429 burst",
    extras: [{ path: "/api/v1/meta", direct: true }, { path: "/api/v1/meta" }],
    expect: [],
  },
  "server-error-on-long-value": {
    why: "the app sends no value over 40 characters",
    extras: [{ path: `/api/v1/search?q=${encodeURIComponent(LONG_WORD)}` }],
    expect: ["no-server-errors"],
  },
  "rank-act-defaulted": {
    why: "the app always sends act",
    extras: [{ path: "/api/v1/rank" }],
    expect: ["invalid-inputs-rejected", "rule:rank-act-required"],
  },
  "feed-pages": {
    why: "the app sends no page to the feed",
    // A, A with page added, then A again: the comparison an `ignores` rule needs passively.
    extras: [
      { path: "/api/v1/feed?limit=5" },
      { path: "/api/v1/feed?limit=5&page=2" },
      { path: "/api/v1/feed?limit=5" },
    ],
    expect: ["rule:feed-snapshot-no-paging"],
  },
  "feed-zdm-with-cate-served": {
    why: "the app never combines cate with type=zdm",
    extras: [{ path: "/api/v1/feed?type=zdm&cate=10" }],
    expect: ["rule:feed-zdm-excludes-cate"],
  },
  "search-bounds-swapped": {
    why: "the app's price bounds are ordered",
    extras: [{ path: "/api/v1/search?mip=100&mxp=1" }],
    expect: ["rule:search-price-bounds-ordered"],
  },
  "search-first-word-only": {
    why: "the app searches one word at a time; the relation needs an OR-word sequence",
    extras: [{ path: `/api/v1/search?q=${encodeURIComponent("zzzz-nothing|京东|支付|话费")}` }],
    expect: [],
  },
  "search-short-page-starts-late": {
    why: "the app sends no search limit; the relation needs a limit sequence",
    extras: [{ path: `/api/v1/search?q=${encodeURIComponent("京东")}&limit=5` }],
    expect: [],
  },
  // The relations of too-little answers need the suite's own sequences; the requests below only
  // reach the answers their bugs change (the bundled data: 1770 results for 京东, 400 activities).
  "search-last-page-short": {
    why: "the app never reads a search's last page; the relation needs the page arithmetic of A, B",
    extras: [{ path: `/api/v1/search?q=${encodeURIComponent("京东")}&limit=50&page=36` }],
    expect: [],
  },
  "shenghuo-last-page-short": {
    why: "the app never reads the activities' last page; the relation needs A, B",
    extras: [{ path: "/api/v1/shenghuo?pageSize=30&page=14" }],
    expect: [],
  },
  "shenghuo-keyword-name-only": {
    why: "the app's activity keywords are in names; the relation needs a keyword sequence",
    extras: [{ path: `/api/v1/shenghuo?q=${encodeURIComponent("叠加")}` }],
    expect: [],
  },
  "rank-short-window-empty": {
    why: "the app's today rank is a short window only in the first 3 hours of the day; the relation crosses operations",
    extras: [{ path: "/api/v1/feed" }, { path: "/api/v1/rank?act=yixiaoshi&limit=300" }],
    expect: [],
  },
  "rank-short-window-stale": {
    why: "the app reads no short window after the feed; the relation crosses operations",
    extras: [{ path: "/api/v1/feed" }, { path: "/api/v1/rank?act=yixiaoshi&limit=300" }],
    expect: [],
  },
  "rank-wide-window-misses-last-hour": {
    why: "the app's rank is today's, left alone in the first hour of the day; the relation needs a widening sequence",
    // Three hours: the top 300 by comments of a longer window may hold no entry of the last hour.
    extras: [{ path: "/api/v1/rank?act=sanxiaoshi&limit=300" }],
    expect: [],
  },
  // The contract's last open points: requests an app does not send, each reaching its bug.
  "head-refused": {
    why: "the app sends no HEAD",
    extras: [{ path: "/api/v1/meta", method: "HEAD" }],
    expect: ["head-as-get"],
  },
  "plain-options-refused": {
    why: "the app's OPTIONS are preflights",
    extras: [{ path: "/api/v1/feed", method: "OPTIONS" }],
    expect: ["options-answered"],
  },
  "query-decoded-leniently": {
    why: "the app's queries always decode",
    extras: [{ path: "/api/v1/search?q=%zz" }],
    expect: ["query-decoding"],
  },
  "criterion-after-parameters": {
    why: "the app never searches without a criterion",
    extras: [{ path: "/api/v1/search?limit=0" }],
    expect: ["rule:search-needs-criterion"],
  },
  "words-trimmed-of-white-space": {
    why: "the app's words hold no U+0085 or U+FEFF",
    extras: [{ path: "/api/v1/search?q=%EF%BB%BF" }, { path: "/api/v1/search?q=%C2%85" }],
    expect: ["valid-inputs-accepted", "rule:search-needs-criterion"],
  },
  "price-bounds-binary": {
    why: "the app's price bounds have two decimals at most",
    extras: [{ path: "/api/v1/search?mip=9.9000000000000000001&mxp=9.9" }],
    expect: ["rule:search-price-bounds-ordered"],
  },
  "uid-read-as-integer": {
    why: "the app writes its uid as it is",
    // Served where the uniform 401 is owed: only the suite's group of variants compares the bodies.
    extras: [{ path: "/api/v1/my/follow?uid={uid}", withKey: true }],
    expect: [],
  },
  "parameters-before-limit": {
    why: "the app stays under the limit; the order of checks needs the suite's 429 burst",
    extras: [{ path: "/api/v1/meta", times: 70 }, { path: "/api/v1/feed?limit=0" }],
    expect: [],
  },
  "compressed-unasked": {
    why: "the app's fetch always offers gzip",
    extras: [{ path: "/api/v1/feed?limit=50", headers: { "accept-encoding": "identity" } }],
    expect: ["content-encoding"],
  },
  "long-url-refused-by-proxy": {
    why: "the app sends no request line over 4 KB",
    // An invalid request too (q over 200 characters): the proxy's 414 is no documented 400.
    extras: [{ path: `/api/v1/search?q=${"a".repeat(4200)}` }],
    expect: ["status-code-documented", "invalid-inputs-rejected", "cors", "cache-control"],
  },
  "waf-blocks-pipes": {
    why: "the app searches one word at a time",
    extras: [{ path: `/api/v1/search?q=${encodeURIComponent("京东|支付")}` }],
    expect: ["status-code-documented", "valid-inputs-accepted", "cors", "cache-control"],
  },
};

const SPEC = await loadSpec();

/** Relations whose second request is on another operation: traffic is paired within one operation. */
const CROSSING = new Set(SPEC.relations().flatMap(({ relation: r }) => (r.to ? [`relation:${r.id}`] : [])));

/**
 * Checks that judge only the suite's own raw requests (request-gate): what a proxy refuses before
 * the API is met by the suite's bytes, never by an app's traffic, so no passive row expects them.
 */
const SUITE_ONLY = new Set(
  FIXED_CHECKS.filter((c) => applicability(SPEC, c).use === "suite only").map((c) => c.name),
);

/** A bug only suite-only checks can see (a proxy refusing long heads): the app's traffic never meets it. */
const suiteOnlyBug = (bug: PlantedBug) => bug.expect.every((c) => SUITE_ONLY.has(c));

/** The checks a bug must fail passively. */
function passiveExpect(bug: PlantedBug): string[] {
  const beyond = BEYOND_THE_APP[bug.name];
  if (beyond) {
    // The extra requests show the bug itself: they may fail only checks the suite fails for it.
    const foreign = beyond.expect.filter((c) => !bug.expect.includes(c));
    if (foreign.length > 0) throw new Error(`${bug.name}: ${foreign.join(", ")} is not a check of the bug`);
    return beyond.expect;
  }
  const unseen = NOT_IN_TRAFFIC[bug.name]?.checks ?? [];
  return unseen.includes("*")
    ? []
    : bug.expect.filter((c) => !unseen.includes(c) && !CROSSING.has(c) && !SUITE_ONLY.has(c));
}

/** Sends the extras through the proxy (or, `direct`, to the planted server from another address). */
async function sendExtras(
  extras: Extra[],
  viaProxy: string,
  planted: string,
  account: { uid: string; key: string },
): Promise<void> {
  for (const extra of extras) {
    for (let n = 0; n < (extra.times ?? 1); n++) {
      if (extra.pauseMs) await new Promise((r) => setTimeout(r, extra.pauseMs));
      const path = extra.withKey ? extra.path.replace("{uid}", `0${account.uid}`) : extra.path;
      const url = new URL(path, extra.direct ? planted : viaProxy);
      await new Promise<void>((done, fail) => {
        const req = http.request(
          url,
          {
            method: extra.method ?? "GET",
            headers: { ...extra.headers, ...(extra.withKey ? { "x-api-key": account.key } : {}) },
            agent: false,
            ...(extra.direct ? { localAddress: "127.0.0.2" } : {}),
          },
          (res) => {
            res.resume();
            res.on("end", done);
          },
        );
        req.on("error", fail);
        req.end();
      });
    }
  }
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
        onExchange: (traffic) => recording.exchange?.(traffic),
      });
      let tally: Tally;
      try {
        const account = upstream.account as { uid: string; key: string };
        await ordinaryClient(proxy.url, { uid: Number(account.uid), key: account.key });
        await sendExtras(BEYOND_THE_APP[name]?.extras ?? [], proxy.url, planted.url, account);
      } finally {
        await proxy.close();
        tally = await planted.tally();
        await planted.close();
        await recording.close();
      }
      // The bug took effect first: a row whose proxy changed no answer could not fail. A bug only
      // the suite's own raw requests meet (a proxy refusing long heads) changes none of the app's:
      // its row shows that the app's traffic through it raises no false finding.
      if (!suiteOnlyBug(bug))
        expect(
          tally.differing,
          `${name}: none of ${tally.exchanges} answers differs from the correct server's`,
        ).toBeGreaterThan(0);
      const live = judge.report();
      const titles = JSON.stringify(live.checks.flatMap((c) => c.violations.map((v) => v.title)));
      expect(failed(live), titles).toEqual(passiveExpect(bug));
      const offline = await judgeCommand({ file: har, reports: [], ...options, out: () => {} });
      expect(failed(offline.report)).toEqual(failed(live));
      expect(keys(offline.report)).toEqual(keys(live));
      expect(offline.code).toBe(failed(live).length > 0 ? 1 : 0);
    },
    // A row whose extras wait past a window boundary (fixed-window) takes a window more.
    60_000,
  );
});
