/**
 * The spec's own examples judge the rule engine. Every x-conformance rule and x-relations
 * relation holds answers that satisfy it and answers that violate it (`examples`, required by the
 * vocabulary schema); each is judged here through the checks the suite runs (`ruleChecks`,
 * `relationChecks`, which call the engine's `checkRule`, `judgeRelation` and the grouped judges)
 * and, for refusing rules, through `refusingRules`, what the server and the mock refuse with. An
 * engine bug then has to disagree with data written by hand, not with the engine itself.
 *
 * An example is also a spec error when the rule would not judge it: its request must satisfy the
 * rule's `when`, a relation's second request must be the first changed by `vary` (on the
 * relation's `to` operation when it crosses to one, carrying what the suite's `varyRequest`
 * carries), and a satisfying example must be evidence (it could have shown a violation), not a
 * vacuous pass.
 */
import { describe, expect, it } from "vitest";
import { conditionHolds, refusingRules } from "../../src/rules/evaluate.ts";
import { itemsAt } from "../../src/rules/relations.ts";
import type {
  ExampleAnswer,
  Relation,
  RelationExample,
  Rule,
  RuleExample,
  Variation,
} from "../../src/rules/types.ts";
import { windowRange } from "../../src/rules/windows.ts";
import { splitWords } from "../../src/rules/words.ts";
import { loadSpec } from "../../src/spec/load.ts";
import type { Operation } from "../../src/spec/types.ts";
import { carriedParameters, fillFromFirst, takenFromFirst } from "../rules/vary.ts";
import { readExchange } from "../runner/exchange.ts";
import type { Check, CheckContext, Exchange, Finding, PlannedGroup, RequestCase } from "../types.ts";
import { relationChecks } from "./relations.ts";
import { ruleChecks } from "./rules.ts";

const spec = await loadSpec();
const ctx: CheckContext = {
  spec,
  releases: [],
  rate: { limit: spec.rateLimit.limit, windowSeconds: spec.rateLimit.window_seconds },
};
/** When an example that gives no `time` was sent and answered (it reads no clock): 2026-01-15 12:00 Shanghai. */
const DEFAULT_TIME = 1_768_449_600;

const sent = (v: Record<string, string | number> | undefined): [string, string][] =>
  Object.entries(v ?? {}).map(([k, x]) => [k, String(x)]);

/** The example answer as the suite would have read it off the wire (runner/exchange.ts). */
function exchangeOf(op: Operation, answer: ExampleAnswer, label: string): Exchange {
  const path = Object.fromEntries(sent(answer.path));
  const pathname = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(path[name] ?? ""));
  const query = sent(answer.query);
  const credentials = answer.credentials ?? (op.secured ? "valid" : undefined);
  const request: RequestCase = {
    method: "GET",
    operationId: op.operationId,
    pathname,
    query,
    headers: {},
    ...(credentials ? { credentials } : {}),
    label,
  };
  const documented = Object.keys(spec.response(op.operationId, answer.status)?.content ?? {})[0];
  const mediaType = answer.mediaType ?? documented;
  const qs = new URLSearchParams(query).toString();
  const time = answer.time ?? DEFAULT_TIME;
  return readExchange(spec, request, {
    url: `http://example.test${pathname}${qs ? `?${qs}` : ""}`,
    status: answer.status,
    headers: mediaType ? { "content-type": mediaType } : {},
    text: typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body ?? null),
    sentAt: time,
    receivedAt: time,
  });
}

const answersOf = (example: RuleExample): ExampleAnswer[] =>
  "answers" in example ? example.answers : [example];

const group = (check: Check, requests: Exchange[]): { planned: PlannedGroup; exchanges: Exchange[] } => ({
  planned: {
    check: check.name,
    kind: "compare",
    requests: requests.map((e) => e.request),
    label: check.name,
  },
  exchanges: requests,
});

/**
 * What the suite concludes from a rule example: the findings of every answer judged alone, and
 * (a rule judged across several answers) of the group; whether it was evidence.
 */
function judgeRuleExample(check: Check, op: Operation, rule: Rule, example: RuleExample) {
  const exchanges = answersOf(example).map((a, i) => exchangeOf(op, a, `${check.name} #${i}`));
  const findings: Finding[] = exchanges.flatMap((e) => check.judge?.(ctx, e) ?? []);
  if (check.judgeGroup) {
    // ignores compares with the base answer sent again last (A, variants, A′): the data did not move.
    const members = rule.then.ignores && exchanges[0] ? [...exchanges, exchanges[0]] : exchanges;
    const verdict = check.judgeGroup(ctx, group(check, members));
    findings.push(...verdict.findings.map((f) => f.finding));
    return { findings, informative: verdict.informative };
  }
  return { findings, informative: exchanges.some((e) => check.informative?.(ctx, e) === true) };
}

/** The operation of a relation's second answer: its `to`, else its own (the example cannot name another). */
const secondOperation = (op: Operation, relation: Relation): Operation =>
  relation.to ? spec.operation(relation.to.operation) : op;

function judgeRelationExample(check: Check, op: Operation, relation: Relation, example: RelationExample) {
  const a = exchangeOf(op, example.first, `${check.name} first`);
  const b = exchangeOf(secondOperation(op, relation), example.second, `${check.name} second`);
  // A, B, A′: the first request sent again got the same answer (the data did not move).
  const verdict = check.judgeGroup?.(ctx, group(check, [a, b, exchangeOf(op, example.first, "again")]));
  return {
    findings: verdict?.findings.map((f) => f.finding) ?? [],
    informative: verdict?.informative ?? false,
  };
}

/**
 * Why the second request of a relation example is not the first changed by `vary` (empty: it is).
 * B starts from A's parameters its operation declares (by name: the legacy file's path `act` is
 * the rank's query `act`), as the suite's `varyRequest` makes it.
 */
function varyMismatches(op: Operation, relation: Relation, example: RelationExample): string[] {
  const target = secondOperation(op, relation);
  const a = exchangeOf(op, example.first, "first");
  const b = exchangeOf(target, example.second, "second");
  const carried = a.parsed ? carriedParameters(target, a.parsed) : new Map<string, string>();
  const second = b.parsed?.raw ?? {};
  const wrong: string[] = [];
  for (const p of target.parameters.filter((x) => x.in !== "header")) {
    const v: Variation | undefined = relation.vary[p.name];
    const want = v ? variedValue(op, target, relation, p.name, v, a, b) : carried.get(p.name);
    if (want !== second[p.name])
      wrong.push(`${p.name}: ${String(second[p.name])}, vary makes ${String(want)}`);
  }
  // A parameter B's operation does not declare: on A's operation kept as A sent it, across operations not sent.
  const given = (x: ExampleAnswer, k: string) => new Map(sent(x.query)).get(k);
  const declared = new Set(target.parameters.map((p) => p.name));
  const undeclared = new Set([...sent(example.first.query), ...sent(example.second.query)].map(([k]) => k));
  for (const k of [...undeclared].filter((x) => !declared.has(x))) {
    const want = relation.to ? undefined : given(example.first, k);
    if (want !== given(example.second, k))
      wrong.push(
        `${k}: ${String(given(example.second, k))}, ${target.operationId} does not declare it (${String(want)})`,
      );
  }
  return wrong;
}

/**
 * What the suite fills a parameter of B with from A's answer (`fromItem`, `windowOf`, `last`):
 * the item is the first carrying every field the relation's variations take, the window the
 * narrowest holding its time when A was sent (the example's `time`), the last page A's
 * `meta.total` over A's page size. Undefined: the variation is not one of these.
 */
function filledFromFirst(op: Operation, target: Operation, relation: Relation, name: string, a: Exchange) {
  const parsed = a.parsed;
  if (!parsed) return undefined;
  const params = Object.fromEntries(
    Object.entries(relation.vary).flatMap(([k, x]) => {
      const how = takenFromFirst(spec, target, x, parsed);
      return how === undefined ? [] : [[k, how] as const];
    }),
  );
  if (params[name] === undefined) return undefined;
  const request = { ...a.request, query: [[name, ""]] as [string, string][] };
  const filled = fillFromFirst(spec, { at: itemsAt(relation, op.operationId), params }, request, a);
  return (
    filled?.query[0]?.[1] ?? "(A's answer does not hold what it takes: an item carrying the field, a total)"
  );
}

/**
 * The value `vary` gives a parameter of the second request (on `target`); for `addWord`, the
 * example's own when it adds one word, for `widerWindow` when it contains A's window.
 */
function variedValue(
  op: Operation,
  target: Operation,
  relation: Relation,
  name: string,
  v: Variation,
  a: Exchange,
  b: Exchange,
): string | undefined {
  const param = target.parameters.find((p) => p.name === name);
  const before = a.parsed?.raw[name];
  const after = b.parsed?.raw[name];
  if ("addWord" in v) {
    const syntax = param?.words;
    if (!syntax) return "(not a word list)";
    const had = before ? splitWords(before, syntax) : [];
    const has = after ? splitWords(after, syntax) : [];
    const added = has.filter((w) => !had.includes(w));
    return had.every((w) => has.includes(w)) && added.length === 1 ? after : "(A's words and one more)";
  }
  if ("set" in v) return String(v.set);
  if ("add" in v) return String(Number(a.parsed?.values[name]) + v.add);
  if ("max" in v) return String(param?.schema.maximum);
  if ("remove" in v) return undefined;
  if ("fromItem" in v || "windowOf" in v || "last" in v || "afterLast" in v)
    return filledFromFirst(op, target, relation, name, a);
  if ("widerWindow" in v) {
    const now = a.sentAt;
    const own = windowRange(spec.rankWindows, String(a.parsed?.values[name]), now);
    const wider = after !== undefined && windowRange(spec.rankWindows, after, now);
    return wider && after !== before && wider.from <= own.from && wider.to >= own.to
      ? after
      : "(a window containing A's)";
  }
  return `(a variation this test does not know: ${JSON.stringify(v)})`;
}

type Kind = "satisfies" | "violates";

/** What a verdict owes its kind of example: no finding and evidence, or a finding naming the rule. */
function verdictProblems(id: string, kind: Kind, verdict: { findings: Finding[]; informative: boolean }) {
  if (kind === "satisfies") {
    return [
      ...verdict.findings.map((f) => `gives a finding: ${f.title}`),
      ...(verdict.informative ? [] : ["is no evidence (it could not have shown a violation)"]),
    ];
  }
  if (verdict.findings.length === 0) return ["gives no finding"];
  return verdict.findings.filter((f) => f.rule !== id).map((f) => `gives a finding of ${f.rule}`);
}

/** Why a rule's example is wrong: empty when the rule applies to it and judges it as its kind says. */
function ruleExampleProblems(check: Check, op: Operation, rule: Rule, kind: Kind, example: RuleExample) {
  const problems: string[] = [];
  const grouped = check.judgeGroup !== undefined;
  if ("answers" in example !== grouped)
    problems.push(
      grouped ? "must be a group of answers (answers: [...])" : "must be one answer, not a group",
    );
  const answers = answersOf(example);
  // ignores: the later answers are the base request with ignored parameters added; the base is the rule's.
  for (const answer of rule.then.ignores ? answers.slice(0, 1) : answers) {
    const e = exchangeOf(op, answer, kind);
    if (!e.parsed || !conditionHolds(spec, op, rule.when, e.parsed, e.request.credentials))
      problems.push(`the rule's when does not hold for ${e.url}`);
    // A refusing rule is what the server and the mock answer this request with.
    const refusing = rule.then.status !== undefined && rule.then.status >= 400 && !rule.when?.credentials;
    if (refusing && e.parsed && !refusingRules(spec, op, e.parsed).some((r) => r.id === rule.id))
      problems.push(`refusingRules does not refuse ${e.url} with it`);
  }
  for (const variant of rule.then.ignores ? answers.slice(1) : []) {
    const base = new Map(sent(answers[0]?.query));
    const added = sent(variant.query).filter(([k, v]) => base.get(k) !== v);
    const kept = [...base].every(([k, v]) => sent(variant.query).some(([k2, v2]) => k2 === k && v2 === v));
    if (!kept || added.length === 0 || added.some(([k]) => !rule.then.ignores?.includes(k)))
      problems.push(
        `${JSON.stringify(variant.query)} is not the base request with an ignored parameter added`,
      );
  }
  return [...problems, ...verdictProblems(rule.id, kind, judgeRuleExample(check, op, rule, example))];
}

/** Why a relation's example is wrong: empty when its first request is one the relation takes, B follows vary, and the verdict fits. */
function relationExampleProblems(
  check: Check,
  op: Operation,
  relation: Relation,
  kind: Kind,
  example: RelationExample,
) {
  const problems: string[] = [];
  const a = exchangeOf(op, example.first, kind);
  if (!a.parsed || !conditionHolds(spec, op, relation.when, a.parsed, a.request.credentials))
    problems.push(`the relation's when does not hold for ${a.url}`);
  problems.push(...varyMismatches(op, relation, example).map((m) => `second request: ${m}`));
  return [
    ...problems,
    ...verdictProblems(relation.id, kind, judgeRelationExample(check, op, relation, example)),
  ];
}

const cases = <T extends { id: string }>(
  checks: Check[],
  entries: { operation: Operation; entry: T }[],
  prefix: string,
) =>
  checks.map((check) => {
    const found = entries.find(({ entry }) => `${prefix}:${entry.id}` === check.name);
    if (!found) throw new Error(`no spec entry for ${check.name}`);
    return [found.entry.id, { check, operation: found.operation, entry: found.entry }] as const;
  });
const ruleCases = cases(
  ruleChecks(spec),
  spec.rules().map(({ operation, rule }) => ({ operation, entry: rule })),
  "rule",
);
const relationCases = cases(
  relationChecks(spec),
  spec.relations().map(({ operation, relation }) => ({ operation, entry: relation })),
  "relation",
);
const ruleCase = (id: string) =>
  (ruleCases.find(([x]) => x === id) ?? [])[1] as (typeof ruleCases)[number][1];
const relationCase = (id: string) =>
  (relationCases.find(([x]) => x === id) ?? [])[1] as (typeof relationCases)[number][1];

/** Every problem of every example, named by where it is (`<id> examples.violates[0]: ...`). */
function allProblems<T>(
  id: string,
  examples: { satisfies: T[]; violates: T[] } | undefined,
  of: (kind: Kind, e: T) => string[],
) {
  if (!examples) return [`${id}: no examples`];
  return (["satisfies", "violates"] as const).flatMap((kind) => [
    ...(examples[kind].length === 0 ? [`${id}: no ${kind} example`] : []),
    ...examples[kind].flatMap((e, i) => of(kind, e).map((p) => `${id} examples.${kind}[${i}] ${p}`)),
  ]);
}

describe("every x-conformance rule judged against its own examples", () => {
  it("has rules to judge", () => expect(ruleCases.length).toBeGreaterThan(30));

  it.each(ruleCases)("%s", (id, { check, operation, entry }) => {
    expect(
      allProblems(id, entry.examples, (kind, e) => ruleExampleProblems(check, operation, entry, kind, e)),
    ).toEqual([]);
  });
});

describe("every x-relations relation judged against its own examples", () => {
  it("has relations to judge", () => expect(relationCases.length).toBeGreaterThan(5));

  it.each(relationCases)("%s", (id, { check, operation, entry }) => {
    expect(
      allProblems(id, entry.examples, (kind, e) => relationExampleProblems(check, operation, entry, kind, e)),
    ).toEqual([]);
  });
});

/** The test's own demands, shown failing: an example the rule would not judge, or judges otherwise, is a spec error. */
// biome-ignore format: a table reads best one case per line
const brokenRuleExamples: [string, { id: string; kind: Kind; example: RuleExample; want: string }][] = [
  ["a request the rule does not apply to", { id: "rank-content-omitted", kind: "satisfies", example: { query: { act: "yixiaoshi", limit: 100 }, status: 200, body: { data: [{ id: 1 }] } }, want: "when does not hold" }],
  ["a satisfying answer with nothing to judge", { id: "rank-content-omitted", kind: "satisfies", example: { query: { act: "yixiaoshi" }, status: 200, body: { data: [] } }, want: "is no evidence" }],
  ["a violating answer the rule accepts", { id: "rank-order", kind: "violates", example: { query: { act: "jintian" }, status: 200, body: { data: [{ id: 1, comments: 9 }, { id: 2, comments: 1 }] } }, want: "gives no finding" }],
  ["a satisfying answer the rule fails", { id: "search-price-range", kind: "satisfies", example: { query: { mip: 10 }, status: 200, body: { data: [{ id: 1, price: 9 }] } }, want: "gives a finding" }],
  ["one answer for a rule judged across several", { id: "feed-snapshot-no-paging", kind: "satisfies", example: { status: 200, body: { data: [{ id: 1 }] } }, want: "must be a group" }],
  ["an ignores variant that changes another parameter", { id: "feed-snapshot-no-paging", kind: "satisfies", example: { answers: [{ query: { cate: "weibo" }, status: 200, body: { data: [{ id: 1 }] } }, { query: { cate: "douban", page: 2 }, status: 200, body: { data: [{ id: 1 }] } }] }, want: "not the base request" }],
];

// biome-ignore format: a table reads best one case per line
const brokenRelationExamples: [string, { id: string; kind: Kind; example: RelationExample; want: string }][] = [
  ["a first request the relation does not take", { id: "search-or-adds", kind: "satisfies", example: { first: { query: { mip: 1 }, status: 200, body: { data: [] } }, second: { query: { mip: 1, q: "京东" }, status: 200, body: { data: [] } } }, want: "when does not hold" }],
  ["a page that add: 1 does not make", { id: "search-pages-disjoint", kind: "violates", example: { first: { query: { q: "京东", limit: 2 }, status: 200, body: { data: [{ id: 2 }, { id: 1 }], meta: { total: 4 } } }, second: { query: { q: "京东", limit: 2, page: 3 }, status: 200, body: { data: [{ id: 2 }], meta: { total: 4 } } } }, want: "page: 3, vary makes 2" }],
  ["two words where addWord adds one", { id: "search-or-adds", kind: "violates", example: { first: { query: { q: "京东" }, status: 200, body: { data: [{ id: 1 }] } }, second: { query: { q: "淘宝|拼多多|京东" }, status: 200, body: { data: [] } } }, want: "q: 淘宝|拼多多|京东, vary makes (A's words and one more)" }],
  ["another parameter changed too", { id: "search-limit-prefix", kind: "violates", example: { first: { query: { q: "京东", limit: 2 }, status: 200, body: { data: [{ id: 1 }] } }, second: { query: { q: "淘宝", limit: 50 }, status: 200, body: { data: [] } } }, want: "q: 淘宝, vary makes 京东" }],
  ["a price not taken from the first item", { id: "search-price-bounds-inclusive", kind: "violates", example: { first: { query: { q: "京东" }, status: 200, body: { data: [{ id: 1, price: 5 }] } }, second: { query: { q: "京东", mip: 6, mxp: 6 }, status: 200, body: { data: [] } } }, want: "mip: 6, vary makes 5" }],
  ["a page that last does not make", { id: "search-last-page-count", kind: "violates", example: { first: { query: { q: "京东", limit: 2 }, status: 200, body: { data: [{ id: 5 }, { id: 4 }], meta: { total: 5 } } }, second: { query: { q: "京东", limit: 2, page: 2 }, status: 200, body: { data: [], meta: { total: 5 } } } }, want: "page: 2, vary makes 3" }],
  ["a last page the total fills", { id: "search-last-page-count", kind: "satisfies", example: { first: { query: { q: "京东", limit: 2 }, status: 200, body: { data: [{ id: 4 }, { id: 3 }], meta: { total: 4 } } }, second: { query: { q: "京东", limit: 2, page: 2 }, status: 200, body: { data: [{ id: 2 }, { id: 1 }], meta: { total: 4 } } } }, want: "is no evidence" }],
  ["a window that does not hold A's first item", { id: "feed-items-in-window-rank", kind: "satisfies", example: { first: { query: { cate: "all" }, time: 1768449600, status: 200, body: { data: [{ id: 5, shijianchuo: 1768448400 }] } }, second: { query: { act: "sanxiaoshi", limit: 300 }, time: 1768449600, status: 200, body: { data: [{ id: 5 }] } } }, want: "act: sanxiaoshi, vary makes yixiaoshi" }],
  ["a feed parameter the rank does not declare", { id: "feed-items-in-window-rank", kind: "satisfies", example: { first: { query: { cate: "all" }, time: 1768449600, status: 200, body: { data: [{ id: 5, shijianchuo: 1768448400 }] } }, second: { query: { act: "yixiaoshi", limit: 300, cate: "all" }, time: 1768449600, status: 200, body: { data: [{ id: 5 }] } } }, want: "cate: all, getRank does not declare it (undefined)" }],
  ["a file's act not carried to the rank", { id: "legacy-rank-equals-rank", kind: "violates", example: { first: { path: { act: "jintian" }, status: 200, body: [{ id: 3 }] }, second: { query: { act: "zuotian", limit: 50 }, status: 200, body: { data: [] } } }, want: "act: zuotian, vary makes jintian" }],
];

describe("a broken example is a spec error", () => {
  it.each(brokenRuleExamples)("%s", (_, { id, kind, example, want }) => {
    const { check, operation, entry } = ruleCase(id);
    expect(ruleExampleProblems(check, operation, entry, kind, example).join("\n")).toContain(want);
  });

  it.each(brokenRelationExamples)("%s", (_, { id, kind, example, want }) => {
    const { check, operation, entry } = relationCase(id);
    expect(relationExampleProblems(check, operation, entry, kind, example).join("\n")).toContain(want);
  });
});
