/**
 * `localTime`: an alert's datetime and shorttime agree with its shijianchuo in the contract's zone.
 * Guards the commonest deployment bug of such a site: a server on a UTC host writing both in UTC
 * while the timestamp stays right (each field valid alone, so nothing else can see it).
 */
import { describe, expect, it } from "vitest";
import { loadSpec, parseDocument, specFromDocument } from "../spec/load.ts";
import { parseRequest } from "../spec/request.ts";
import type { Spec } from "../spec/spec.ts";
import { checkRule } from "./evaluate.ts";
import { ruleInformative } from "./evidence.ts";
import { localStamp } from "./windows.ts";

const spec = await loadSpec();
// 2026-11-25 10:32:40 in Asia/Shanghai, 02:32:40 UTC; 23:59:59 there is 15:59:59 UTC.
const T = 1_795_573_960;
const LATE = 1_795_622_399;

function judge(s: Spec, operationId: string, ruleId: string, query: string, body: unknown) {
  const operation = s.operation(operationId);
  const match = s.match(operation.path.replace("{act}", "yixiaoshi"));
  const request = parseRequest(s, operation, new URLSearchParams(query), match?.pathParams);
  const exchange = {
    operation,
    request,
    status: 200,
    mediaType: "application/json",
    body,
    sentAt: T,
    receivedAt: T,
  };
  const rule = operation.rules.find((r) => r.id === ruleId);
  if (!rule) throw new Error(`no rule ${ruleId}`);
  return { failures: checkRule(s, rule, exchange), informative: ruleInformative(s, rule, exchange) };
}

const alert = (shijianchuo: unknown, datetime: unknown, shorttime: unknown) => ({
  id: 1,
  title: "京东 红包",
  shijianchuo,
  ...(datetime === undefined ? {} : { datetime }),
  ...(shorttime === undefined ? {} : { shorttime }),
});

describe("localStamp", () => {
  it.each([
    [T, "Asia/Shanghai", "2026-11-25", "10:32"],
    [T, "UTC", "2026-11-25", "02:32"],
    [LATE, "Asia/Shanghai", "2026-11-25", "23:59"],
    [LATE + 1, "Asia/Shanghai", "2026-11-26", "00:00"],
    [LATE, "UTC", "2026-11-25", "15:59"],
  ])("%i in %s is %s %s (the minute, never rounded up)", (t, zone, date, time) => {
    expect([localStamp(t, zone, "date"), localStamp(t, zone, "time")]).toEqual([date, time]);
  });
});

describe("the local-times rules", () => {
  const rank = (item: unknown) => ["getRank", "rank-local-times", "act=yixiaoshi", { data: [item] }] as const;
  const cases: [string, readonly [string, string, string, unknown], string[]][] = [
    ["Asia/Shanghai stamps agree", rank(alert(T, "2026-11-25", "10:32")), []],
    [
      "both written in UTC (a UTC host): the time is 8 hours off",
      rank(alert(T, "2026-11-25", "02:32")),
      ["shorttime"],
    ],
    [
      "written in UTC at 23:59 local: the same date, the time 8 hours off",
      rank(alert(LATE, "2026-11-25", "15:59")),
      ["shorttime"],
    ],
    [
      "written in UTC at 00:59 local: the date a day behind too",
      rank(alert(LATE + 3600, "2026-11-25", "16:59")),
      ["datetime", "shorttime"],
    ],
    ["the minute rounded up", rank(alert(T, "2026-11-25", "10:33")), ["shorttime"]],
    ["a missing datetime (a missing value fails)", rank(alert(T, undefined, "10:32")), ["datetime"]],
    ["no timestamp to agree with: the schema's to report", rank(alert("x", "2026-11-25", "02:32")), []],
    [
      "search results",
      ["searchAlerts", "search-local-times", "q=京东", { data: [alert(T, "2026-11-25", "02:32")] }],
      ["shorttime"],
    ],
    [
      "personal hits",
      ["getMyPushHits", "my-push-local-times", "uid=10001", { data: [alert(T, "2026-11-24", "10:32")] }],
      ["datetime"],
    ],
    [
      "the legacy file's bare array",
      ["getLegacyRankFile", "legacy-rank-local-times", "", [alert(T, "2026-11-25", "02:32")]],
      ["shorttime"],
    ],
    [
      "feed: zdm items carry posttime alone and are not judged",
      ["getFeed", "feed-local-times", "type=zdm", { data: [{ id: 9, type: "smzdm", posttime: T }] }],
      [],
    ],
  ];
  it.each(cases)("%s", (_, [op, id, query, body], fields) => {
    const { failures } = judge(spec, op, id, query, body);
    expect(failures.map((f) => f.pointer?.split("/").at(-1))).toEqual(fields);
  });

  it("a failure says what the field should have been", () => {
    const [failure] = judge(spec, ...rank(alert(T, "2026-11-25", "02:32"))).failures;
    expect(failure).toMatchObject({ pointer: "/data/0/shorttime", received: "02:32", documented: "10:32" });
    expect(failure?.message).toContain("Asia/Shanghai");
  });

  it("a feed of zdm items alone is no evidence; an alert among them is", () => {
    const zdm = { id: 9, type: "smzdm", posttime: T };
    expect(judge(spec, "getFeed", "feed-local-times", "type=zdm", { data: [zdm] }).informative).toBe(false);
    const mixed = { data: [zdm, alert(T, "2026-11-25", "10:32")] };
    expect(judge(spec, "getFeed", "feed-local-times", "", mixed).informative).toBe(true);
  });

  it("the zone is read from x-rank-windows, not typed: a spec in UTC accepts UTC stamps", async () => {
    const raw = parseDocument(JSON.stringify(spec.raw));
    (raw["x-rank-windows"] as { timezone: string }).timezone = "UTC";
    const utc = await specFromDocument(raw);
    expect(judge(utc, ...rank(alert(T, "2026-11-25", "02:32"))).failures).toEqual([]);
    expect(judge(utc, ...rank(alert(T, "2026-11-25", "10:32"))).failures).toHaveLength(1);
  });
});
