import { describe, expect, it } from "vitest";
import { type Doc, diffEdit, get, param, rulesOf } from "./testing.ts";

type Case = [string, { given: (d: Doc) => void; want: string[] }];

/** Request parameters: narrowing what clients may send breaks them; widening it does not. */
// biome-ignore format: a table reads best one case per line
const parameters: Case[] = [
  ["parameter removed", { given: (d) => get(d, "/api/v1/rank").parameters.pop(), want: ["request-parameter-removed"] }],
  ["required parameter added", { given: (d) => get(d, "/api/v1/search").parameters.push({ name: "sort", in: "query", required: true, schema: { type: "string" } }), want: ["request-parameter-added-required"] }],
  ["optional parameter added", { given: (d) => get(d, "/api/v1/search").parameters.push({ name: "sort", in: "query", schema: { type: "string" } }), want: ["request-parameter-added"] }],
  ["parameter became required", { given: (d) => { param(d, "FeedLimit").required = true; }, want: ["request-parameter-became-required"] }],
  ["parameter became optional", { given: (d) => { param(d, "Uid").required = false; }, want: ["request-parameter-became-optional"] }],
  ["parameter moved to a header", { given: (d) => { param(d, "Uid").in = "header"; }, want: ["request-parameter-added-required", "request-parameter-removed"] }],
  // RankAct is also the type of meta.act in responses: the same edit is judged per direction.
  ["enum value removed", { given: (d) => d.components.schemas.RankAct.enum.pop(), want: ["request-enum-value-removed", "response-enum-value-removed"] }],
  ["enum value added", { given: (d) => d.components.schemas.RankAct.enum.push("sanshitian"), want: ["request-enum-value-added", "response-enum-value-added"] }],
  ["enum value added (request only)", { given: (d) => param(d, "FeedType").schema.enum.push("hot"), want: ["request-enum-value-added"] }],
  ["enum introduced on a free string", { given: (d) => { param(d, "RssTag").schema.enum = ["京东", "红包"]; }, want: ["request-enum-value-removed"] }],
  ["maximum lowered", { given: (d) => { param(d, "RankLimit").schema.maximum = 200; }, want: ["request-bound-narrowed"] }],
  ["minimum raised", { given: (d) => { param(d, "RankLimit").schema.minimum = 5; }, want: ["request-bound-narrowed"] }],
  ["maxLength lowered", { given: (d) => { param(d, "SearchQ").schema.maxLength = 100; }, want: ["request-bound-narrowed"] }],
  ["minLength added", { given: (d) => { param(d, "ShenghuoQ").schema.minLength = 2; }, want: ["request-bound-narrowed"] }],
  ["maximum raised", { given: (d) => { param(d, "RankLimit").schema.maximum = 500; }, want: ["request-bound-widened"] }],
  ["maxLength raised", { given: (d) => { param(d, "SearchQ").schema.maxLength = 400; }, want: ["request-bound-widened"] }],
  ["maximum removed", { given: (d) => delete param(d, "Page").schema.maximum, want: ["request-bound-widened"] }],
  ["default changed", { given: (d) => { param(d, "RankLimit").schema.default = 30; }, want: ["default-changed"] }],
  ["shared default changed", { given: (d) => { d.components.schemas.CategoryRef.default = "weibo"; }, want: ["default-changed"] }],
  ["type narrowed number → integer", { given: (d) => { param(d, "SearchMip").schema.type = "integer"; }, want: ["request-type-changed"] }],
  ["type changed integer → string", { given: (d) => { param(d, "Uid").schema = { type: "string", pattern: "^[0-9]+$" }; }, want: ["request-bound-widened", "request-pattern-narrowed", "request-type-changed"] }],
  ["type widened integer → number", { given: (d) => { param(d, "RankLimit").schema.type = "number"; }, want: ["request-type-widened"] }],
  ["pattern changed", { given: (d) => { param(d, "ShenghuoCate").schema.pattern = "^[a-z]{1,16}$"; }, want: ["request-pattern-narrowed"] }],
  ["pattern character class narrowed", { given: (d) => { param(d, "ShenghuoCate").schema.pattern = "^[a-z0-9]{1,32}$"; }, want: ["request-pattern-narrowed"] }],
  ["pattern length widened", { given: (d) => { param(d, "ShenghuoCate").schema.pattern = "^[a-z0-9_-]{1,64}$"; }, want: ["request-pattern-widened"] }],
  ["pattern rewritten, same language", { given: (d) => { param(d, "ShenghuoCate").schema.pattern = "^[-a-z0-9_]{1,32}$"; }, want: ["pattern-changed"] }],
  ["pattern added", { given: (d) => { param(d, "RssTag").schema.pattern = "^[^#|]+$"; }, want: ["request-pattern-narrowed"] }],
  ["format added", { given: (d) => { param(d, "RssTag").schema.format = "hostname"; }, want: ["request-format-narrowed"] }],
  ["pattern removed", { given: (d) => delete param(d, "ShenghuoCate").schema.pattern, want: ["request-pattern-widened"] }],
  ["style changed", { given: (d) => { param(d, "FeedCate").style = "spaceDelimited"; }, want: ["request-parameter-style-changed"] }],
  ["x-words separator removed", { given: (d) => param(d, "SearchQ")["x-words"].separators.pop(), want: ["request-words-narrowed"] }],
  ["x-words max_words lowered", { given: (d) => { param(d, "SearchKp")["x-words"].max_words = 5; }, want: ["request-words-narrowed"] }],
  ["x-words max_words raised", { given: (d) => { param(d, "SearchQ")["x-words"].max_words = 20; }, want: ["request-words-widened"] }],
  ["x-words separator added", { given: (d) => param(d, "RssQ")["x-words"].separators.push(","), want: ["request-words-semantics-changed"] }],
  ["x-words combine changed", { given: (d) => { param(d, "RssQ")["x-words"].combine = "all"; }, want: ["request-words-semantics-changed"] }],
  ["description changed", { given: (d) => { param(d, "RankLimit").description = "How many entries."; }, want: ["documentation-changed"] }],
  ["parameters reordered", { given: (d) => get(d, "/api/v1/search").parameters.reverse(), want: [] }],
  ["parameter deprecated", { given: (d) => { param(d, "FeedType").deprecated = true; }, want: ["documentation-changed"] }],
];

describe("request parameters", () => {
  it.each(parameters)("%s", async (_, { given, want }) => {
    expect(rulesOf(await diffEdit(given))).toEqual([...want].sort());
  });

  it("names the parameter in the location", async () => {
    const r = await diffEdit((d) => {
      param(d, "RankLimit").schema.maximum = 200;
    });
    expect(r.findings[0]?.location).toMatchObject({
      operation: "GET /api/v1/rank",
      parameter: "query limit",
    });
    expect(r.findings[0]?.location.pointer).toBe("/components/parameters/RankLimit/schema/maximum");
  });
});
