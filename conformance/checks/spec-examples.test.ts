/**
 * The spec's own examples judge the rule engine. Every x-conformance rule and x-relations
 * relation holds answers that satisfy it and answers that violate it (`examples`, required by the
 * vocabulary schema); each is judged here through the checks the suite runs (`ruleChecks`,
 * `relationChecks`, which call the engine's `checkRule`, `judgeRelation` and the grouped judges)
 * and, for refusing rules, through `refusingRules`, what the server and the mock refuse with. An
 * engine bug then has to disagree with data written by hand, not with the engine itself.
 *
 * An example is also a spec error when the rule would not judge it: its request must satisfy the
 * rule's `when`, a relation's second request must be the first changed by `vary`, and a
 * satisfying example must be evidence (it could have shown a violation), not a vacuous pass.
 */
import { describe, expect, it } from "vitest";
import { conditionHolds, refusingRules } from "../../src/rules/evaluate.ts";
import { sourceItem } from "../../src/rules/relations.ts";
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
function judgeRuleExample(check: Check, op: Operation, example: RuleExample) {
  const exchanges = answersOf(example).map((a, i) => exchangeOf(op, a, `${check.name} #${i}`));
  const findings: Finding[] = exchanges.flatMap((e) => check.judge?.(ctx, e) ?? []);
  if (check.judgeGroup) {
    // ignores compares with the base answer sent again last (A, variants, A′): the data did not move.
    const members = isIgnores(check) && exchanges[0] ? [...exchanges, exchanges[0]] : exchanges;
    const verdict = check.judgeGroup(ctx, group(check, members));
    findings.push(...verdict.findings.map((f) => f.finding));
    return { findings, informative: verdict.informative };
  }
  return { findings, informative: exchanges.some((e) => check.informative?.(ctx, e) === true) };
}

const rulesById = new Map(spec.rules().map(({ rule }) => [rule.id, rule]));
const isIgnores = (check: Check) =>
  rulesById.get(check.name.slice("rule:".length))?.then.ignores !== undefined;

function judgeRelationExample(check: Check, op: Operation, example: RelationExample) {
  const a = exchangeOf(op, example.first, `${check.name} first`);
  const b = exchangeOf(op, example.second, `${check.name} second`);
  // A, B, A′: the first request sent again got the same answer (the data did not move).
  const verdict = check.judgeGroup?.(ctx, group(check, [a, b, exchangeOf(op, example.first, "again")]));
  return {
    findings: verdict?.findings.map((f) => f.finding) ?? [],
    informative: verdict?.informative ?? false,
  };
}

/** Why the second request of a relation example is not the first changed by `vary` (empty: it is). */
function varyMismatches(op: Operation, relation: Relation, example: RelationExample): string[] {
  const a = exchangeOf(op, example.first, "first");
  const b = exchangeOf(op, example.second, "second");
  const first = a.parsed?.raw ?? {};
  const second = b.parsed?.raw ?? {};
  const wrong: string[] = [];
  for (const p of op.parameters.filter((x) => x.in !== "header")) {
    const v: Variation | undefined = relation.vary[p.name];
    const want = v ? variedValue(op, relation, p.name, v, a, b) : first[p.name];
    if (want !== second[p.name])
      wrong.push(`${p.name}: ${String(second[p.name])}, vary makes ${String(want)}`);
  }
  return wrong;
}

/** The value `vary` gives a parameter of the second request; for `addWord`, the example's own when it adds one word. */
function variedValue(
  op: Operation,
  relation: Relation,
  name: string,
  v: Variation,
  a: Exchange,
  b: Exchange,
): string | undefined {
  const param = op.parameters.find((p) => p.name === name);
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
  if ("fromItem" in v) {
    const item = a.parsed && sourceItem(relation, { ...a, operation: op, request: a.parsed });
    return item ? String(item[v.fromItem]) : "(no item of A carries it)";
  }
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

const ruleCases = ruleChecks(spec).map((check) => {
  const { operation, rule } = spec.rules().find((r) => `rule:${r.rule.id}` === check.name) as {
    operation: Operation;
    rule: Rule;
  };
  return [rule.id, { check, operation, rule }] as const;
});
const relationCases = relationChecks(spec).map((check) => {
  const { operation, relation } = spec
    .relations()
    .find((r) => `relation:${r.relation.id}` === check.name) as { operation: Operation; relation: Relation };
  return [relation.id, { check, operation, relation }] as const;
});

describe("every x-conformance rule judged against its own examples", () => {
  it("has rules to judge", () => expect(ruleCases.length).toBeGreaterThan(30));

  it.each(ruleCases)("%s", (id, { check, operation, rule }) => {
    const examples = rule.examples;
    expect(examples?.satisfies.length, "examples.satisfies").toBeGreaterThan(0);
    expect(examples?.violates.length, "examples.violates").toBeGreaterThan(0);
    const grouped = check.judgeGroup !== undefined;
    for (const [kind, list] of [
      ["satisfies", examples?.satisfies ?? []],
      ["violates", examples?.violates ?? []],
    ] as const) {
      list.forEach((example, i) => {
        const where = `${id} examples.${kind}[${i}]`;
        expect(
          "answers" in example,
          `${where}: a group of answers exactly when the rule is judged across several`,
        ).toBe(grouped);
        for (const answer of answersOf(example).slice(0, rule.then.ignores ? 1 : undefined)) {
          const e = exchangeOf(operation, answer, where);
          const holds =
            e.parsed && conditionHolds(spec, operation, rule.when, e.parsed, e.request.credentials);
          expect(holds, `${where}: the rule's when does not hold for its request`).toBe(true);
          // A refusing rule is what the server and the mock answer this request with.
          if (
            rule.then.status !== undefined &&
            rule.then.status >= 400 &&
            !rule.when?.credentials &&
            e.parsed
          )
            expect(
              refusingRules(spec, operation, e.parsed).map((r) => r.id),
              where,
            ).toContain(id);
        }
        const verdict = judgeRuleExample(check, operation, example);
        if (kind === "satisfies") {
          expect(verdict.findings, where).toEqual([]);
          expect(verdict.informative, `${where} must be evidence, not a vacuous pass`).toBe(true);
        } else {
          expect(verdict.findings.length, `${where} must fail`).toBeGreaterThan(0);
          for (const f of verdict.findings) expect(f.rule, where).toBe(id);
        }
      });
    }
  });
});

describe("every x-relations relation judged against its own examples", () => {
  it("has relations to judge", () => expect(relationCases.length).toBeGreaterThan(5));

  it.each(relationCases)("%s", (id, { check, operation, relation }) => {
    const examples = relation.examples;
    expect(examples?.satisfies.length, "examples.satisfies").toBeGreaterThan(0);
    expect(examples?.violates.length, "examples.violates").toBeGreaterThan(0);
    for (const [kind, list] of [
      ["satisfies", examples?.satisfies ?? []],
      ["violates", examples?.violates ?? []],
    ] as const) {
      list.forEach((example, i) => {
        const where = `${id} examples.${kind}[${i}]`;
        const a = exchangeOf(operation, example.first, where);
        const holds =
          a.parsed && conditionHolds(spec, operation, relation.when, a.parsed, a.request.credentials);
        expect(holds, `${where}: the relation's when does not hold for the first request`).toBe(true);
        expect(varyMismatches(operation, relation, example), `${where}: second request`).toEqual([]);
        const verdict = judgeRelationExample(check, operation, example);
        if (kind === "satisfies") {
          expect(verdict.findings, where).toEqual([]);
          expect(verdict.informative, `${where} must be evidence, not a vacuous pass`).toBe(true);
        } else {
          expect(verdict.findings.length, `${where} must fail`).toBeGreaterThan(0);
          for (const f of verdict.findings) expect(f.rule, where).toBe(id);
        }
      });
    }
  });
});
