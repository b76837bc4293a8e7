/**
 * Candidate requests for the plan, each read against the spec: which goals it can serve (a rule
 * it can give evidence for, a boundary it exercises, a valid or invalid request of its operation)
 * and which checks would judge its answer. The planner picks the fewest that serve every goal.
 */
import { conditionHolds, refusingRules } from "../../src/rules/evaluate.ts";
import { parseRequest, queryLengthError } from "../../src/spec/request.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { Operation } from "../../src/spec/types.ts";
import { boundaryCases, isPastDouble, servedBase, validValues } from "../arbitraries/boundaries.ts";
import { type Account, buildCase } from "../arbitraries/requests.ts";
import { ruleCases } from "../arbitraries/rule-cases.ts";
import { steeredCases } from "../arbitraries/steered.ts";
import type { Vocabulary } from "../arbitraries/vocabulary.ts";
import type { RequestCase } from "../types.ts";

export interface Candidate {
  request: RequestCase;
  /** Goals it can serve: `rule:<id>`, `valid:<op>`, `valid:<op>:<p>=<v>`, `invalid:<op>:<p>…`. */
  goals: string[];
  /** Checks that would judge its answer. */
  feeds: string[];
  /** Chosen with the target's data in mind: likely to give rules something to judge. */
  steered: boolean;
}

const credentialsOf = (op: Operation, account?: Account) =>
  op.secured ? (account ? ("valid" as const) : ("invalid" as const)) : undefined;

/** Checks that judge every answer of a routed request. */
export const EVERY_ANSWER = [
  "status-code-documented",
  "content-type",
  "response-schema",
  "response-headers",
  "cors",
  "no-server-errors",
  "answers-complete",
];

/** The check a goal gives evidence to. */
export function goalCheck(goal: string): string {
  if (goal.startsWith("valid:")) return "valid-inputs-accepted";
  if (goal.startsWith("invalid:")) return "invalid-inputs-rejected";
  // `rule:<id> <param>=<value>`: a rule's own boundary (a price bound past a double's digits).
  if (goal.startsWith("rule:")) return goal.split(" ")[0] ?? goal;
  return goal;
}

/** Reads a request against the spec: the goals it serves and the checks that judge it. */
export function readCandidate(spec: Spec, op: Operation, request: RequestCase, steered: boolean): Candidate {
  const match = spec.match(request.pathname);
  const sent = new URLSearchParams(request.query).toString();
  const parsed = parseRequest(spec, op, new URLSearchParams(sent), match?.pathParams);
  // The cap counts the query as sent (x-query-string), before any parameter is read.
  const tooLong = queryLengthError(spec, sent);
  if (tooLong) parsed.errors.unshift(tooLong);
  const capGoal = `query of ${sent.length} characters as sent`;
  const credentials = request.credentials;
  const refusing = refusingRules(spec, op, parsed);
  const authorized = !op.secured || credentials === "valid";
  const valid = authorized && parsed.errors.length === 0 && refusing.length === 0;
  const id = op.operationId;
  const goals: string[] = [];
  if (valid) {
    goals.push(`valid:${id}`);
    for (const p of op.parameters) {
      const raw = parsed.raw[p.name];
      if (raw !== undefined && validValues(p).includes(raw)) goals.push(`valid:${id}:${p.name}=${raw}`);
    }
    if (sent.length === spec.queryString.max_length) goals.push(`valid:${id}:${capGoal}`);
  }
  const [only, ...more] = parsed.errors;
  if (authorized && only && more.length === 0) {
    const twice = request.query.filter(([k]) => k === only.name).length > 1;
    const raw = parsed.raw[only.name];
    const goal =
      only === tooLong
        ? `invalid:${id}:${capGoal}`
        : `invalid:${id}:${only.name}${twice ? " twice" : raw === undefined ? " missing" : `=${raw}`}`;
    goals.push(goal);
    // Refused by a rule about other parameters too (no search criterion): one 400 must say both.
    const alsoRefused = refusing.find((r) => !Object.keys(r.when?.query ?? {}).includes(only.name));
    if (alsoRefused && only !== tooLong) goals.push(`${goal} and ${alsoRefused.id}`);
  }
  // A rule that says the answer is empty (a price filter on an unpriced category) leaves the
  // rules about items nothing to judge: the request serves only that one.
  const empty =
    valid &&
    op.rules.some((r) => r.then.empty !== undefined && conditionHolds(spec, op, r.when, parsed, credentials));
  for (const rule of op.rules) {
    if (rule.then.ignores || rule.then.uniformBody) continue;
    if (!conditionHolds(spec, op, rule.when, parsed, credentials)) continue;
    const refuses = rule.then.status !== undefined && rule.then.status >= 400;
    // A refusal is only the rule's when nothing else is wrong (a missing act is what it is about).
    const onlyItsOwn = parsed.errors.every(
      (e) => parsed.raw[e.name] === undefined && e.reason === "is required",
    );
    const judgesItems =
      rule.then.each !== undefined || rule.then.count !== undefined || rule.then.order !== undefined;
    if (
      refuses
        ? refusing.includes(rule) && onlyItsOwn
        : valid && !(empty && judgesItems && rule.then.empty === undefined)
    ) {
      // A price bound past a double's digits serves its own goal only: the plain one needs a case
      // any implementation reads alike.
      const exact = Object.entries(parsed.raw).find(([, v]) => v !== undefined && isPastDouble(v));
      goals.push(exact ? `rule:${rule.id} ${exact[0]}=${exact[1]}` : `rule:${rule.id}`);
    }
  }
  const feeds = new Set([...EVERY_ANSWER, ...goals.map(goalCheck)]);
  if (valid) feeds.add("versioning");
  if (id === "getMeta") feeds.add("meta-limits");
  // Rules judge every answer their condition holds for, informative or not.
  for (const rule of op.rules)
    if (conditionHolds(spec, op, rule.when, parsed, credentials)) feeds.add(`rule:${rule.id}`);
  return { request, goals, feeds: [...feeds], steered };
}

/**
 * Valid boundary values of an operation zipped into as few rows as the longest list: row i takes
 * the i-th value of every parameter (cycling), so 13 rank windows also carry limit 1 and 300. A
 * row the spec refuses (cate with type=zdm) sheds parameters until it is valid.
 */
function zippedRows(spec: Spec, op: Operation, vocab: Vocabulary, account?: Account): RequestCase[] {
  const lists = op.parameters
    .filter((p) => p.in !== "header" && !(op.secured && p.name === "uid"))
    .map((p) => [p.name, validValues(p)] as const)
    .filter(([, values]) => values.length > 0);
  const rows = Math.max(0, ...lists.map(([, values]) => values.length));
  const credentials = credentialsOf(op, account);
  const out: RequestCase[] = [];
  for (let i = 0; i < rows; i++) {
    const values = servedBase(spec, op, vocab);
    for (const [name, list] of lists) values[name] = list[i % list.length] as string;
    for (const [name] of [...lists].reverse()) {
      const request = buildCase(op, { values, credentials, label: "boundaries" }, account);
      if (readCandidate(spec, op, request, false).goals.includes(`valid:${op.operationId}`)) break;
      if (!op.parameters.find((p) => p.name === name)?.required) delete values[name];
    }
    out.push(buildCase(op, { values, credentials, label: "boundaries" }, account));
  }
  return out;
}

/** Every candidate of an operation, steered ones first. */
export function candidatesOf(spec: Spec, op: Operation, vocab: Vocabulary, account?: Account): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  const add = (request: RequestCase, steered: boolean) => {
    const key = JSON.stringify([request.pathname, request.query, request.headers]);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(readCandidate(spec, op, request, steered));
  };
  for (const r of steeredCases(spec, op, vocab, account)) add(r, true);
  add(
    buildCase(
      op,
      { values: servedBase(spec, op, vocab), credentials: credentialsOf(op, account), label: "base" },
      account,
    ),
    false,
  );
  for (const r of zippedRows(spec, op, vocab, account)) add(r, false);
  for (const r of ruleCases(spec, op, vocab, account)) add(r, false);
  for (const r of boundaryCases(spec, op, vocab, account)) add(r, false);
  return out;
}
