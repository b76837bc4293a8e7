/**
 * Whole requests for one operation: a map of parameter values (absent = not sent) plus
 * credentials, turned into a RequestCase. The arbitrary mixes valid requests, requests with one
 * invalid parameter, and fuzzed query strings, so shrinking leads to a minimal failing request.
 */
import fc from "fast-check";
import type { Operation } from "../../src/spec/types.ts";
import type { Credentials, RequestCase } from "../types.ts";
import { invalidValue, validValue } from "./params.ts";
import type { Vocabulary } from "./vocabulary.ts";

/** A known account of the target, for the key-protected operations. */
export interface Account {
  uid: string;
  key: string;
}

/** A wrong key of the documented format (32 lowercase hex), deterministic. */
export const WRONG_KEY = "0123456789abcdef0123456789abcdef";

/** A wrong key for this account: the fixed one, unless that happens to be the account's own. */
export const wrongKeyFor = (account?: Account) =>
  account?.key === WRONG_KEY ? [...WRONG_KEY].reverse().join("") : WRONG_KEY;

export interface CaseSpec {
  /** Parameter name → raw value; absent names are not sent. */
  values: Record<string, string>;
  credentials?: Credentials;
  /** Extra raw query entries (fuzzing, duplicates, unknown parameters). */
  extra?: [string, string][];
  label: string;
}

/** Turns parameter values into a request: path parameters filled in, query entries in spec order. */
export function buildCase(op: Operation, spec: CaseSpec, account?: Account): RequestCase {
  let pathname = op.path;
  const query: [string, string][] = [];
  const values = { ...spec.values };
  const headers: Record<string, string> = {};
  if (op.secured) {
    if (spec.credentials === "valid" && account) {
      values.uid = account.uid;
      headers["x-api-key"] = account.key;
    } else if (spec.credentials === "invalid") {
      headers["x-api-key"] = wrongKeyFor(account);
    }
  }
  for (const p of op.parameters) {
    const v = values[p.name];
    if (p.in === "path") pathname = pathname.replace(`{${p.name}}`, encodeURIComponent(v ?? ""));
    else if (p.in === "query" && v !== undefined) query.push([p.name, v]);
  }
  query.push(...(spec.extra ?? []));
  // The key authenticates a uid: with the uid changed or given twice the pair no longer does.
  let credentials = spec.credentials ?? "invalid";
  if (credentials === "valid" && query.filter(([k]) => k === "uid").length !== 1) credentials = "invalid";
  return {
    method: "GET",
    operationId: op.operationId,
    pathname,
    query,
    headers,
    ...(op.secured ? { credentials } : {}),
    label: spec.label,
  };
}

function credentialsArb(op: Operation, account?: Account): fc.Arbitrary<Credentials | undefined> {
  if (!op.secured) return fc.constant(undefined);
  return account ? fc.constantFrom<Credentials>("valid", "valid", "invalid") : fc.constant("invalid");
}

function validValues(op: Operation, vocab: Vocabulary): fc.Arbitrary<Record<string, string>> {
  const model: Record<string, fc.Arbitrary<string | undefined>> = {};
  for (const p of op.parameters) {
    if (p.in === "header") continue;
    const arb = validValue(p, vocab);
    model[p.name] = p.required ? arb : fc.option(arb, { nil: undefined, freq: 2 });
  }
  return fc.record(model).map((r) => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(r)) if (v !== undefined) out[k] = v;
    return out;
  });
}

/** Fuzzed extra entries: unknown names, known names given twice, odd characters. */
function fuzzEntries(op: Operation): fc.Arbitrary<[string, string][]> {
  const names = op.parameters.filter((p) => p.in === "query").map((p) => p.name);
  const name = fc.oneof(
    ...(names.length > 0 ? [fc.constantFrom(...names)] : []),
    fc.string({ minLength: 1, maxLength: 6, unit: "grapheme-ascii" }),
  );
  const value = fc.oneof(
    fc.string({ maxLength: 12, unit: "grapheme" }),
    fc.constantFrom("%", "%00", "\u0000", "😀", "'\"<>", "-1", "99999999999999999999", " ", "\n"),
  );
  return fc.array(fc.tuple(name, value), { minLength: 1, maxLength: 3 });
}

/** The arbitrary of requests for one operation: valid 3 : invalid 2 : fuzzed 1. */
export function requestArbitrary(
  op: Operation,
  vocab: Vocabulary,
  account?: Account,
): fc.Arbitrary<RequestCase> {
  const base = fc.record({ values: validValues(op, vocab), credentials: credentialsArb(op, account) });
  const params = op.parameters.filter((p) => p.in !== "header");
  const valid = base.map((b) => buildCase(op, { ...b, label: "random valid" }, account));
  const invalid =
    params.length === 0
      ? valid
      : fc
          .tuple(
            base,
            fc.constantFrom(...params).chain((p) => fc.tuple(fc.constant(p.name), invalidValue(p))),
          )
          .map(([b, [name, value]]) =>
            buildCase(op, { ...b, values: { ...b.values, [name]: value }, label: "random invalid" }, account),
          );
  const fuzz = fc
    .tuple(base, fuzzEntries(op))
    .map(([b, extra]) => buildCase(op, { ...b, extra, label: "fuzzed" }, account));
  return fc.oneof(
    { arbitrary: valid, weight: 3 },
    { arbitrary: invalid, weight: 2 },
    { arbitrary: fuzz, weight: 1 },
  );
}
