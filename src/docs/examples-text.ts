/**
 * A rule's or relation's examples as the reference page shows them: each answer as its request
 * line, status and body, so a client developer sees what the promise allows and what breaks it.
 * Read from the document as written (`spec.raw`), the same data the spec's tests judge.
 */
import type { ExampleAnswer, Examples, RelationExample, RuleExample } from "../rules/types.ts";
import type { Operation } from "../spec/types.ts";

const sent = (v: Record<string, string | number> | undefined): [string, string][] =>
  Object.entries(v ?? {}).map(([k, x]) => [k, String(x)]);

/** One answer: `GET /path?query` (with a wrong key, at a time) → status `body`. */
export function answerText(op: Operation, a: ExampleAnswer): string {
  const path = Object.fromEntries(sent(a.path));
  const pathname = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(path[name] ?? ""));
  // Readable as written (京东|淘宝), escaping only what would change the query's meaning.
  const qs = sent(a.query)
    .map(([k, v]) => `${k}=${v.replace(/[%&=#+ ]/g, encodeURIComponent)}`)
    .join("&");
  const context = [
    a.credentials === "invalid" ? "without a valid key" : "",
    a.time !== undefined ? `at ${new Date(a.time * 1000).toISOString().replace(".000", "")}` : "",
  ].filter(Boolean);
  const request = `\`GET ${pathname}${qs ? `?${qs}` : ""}\`${context.length ? ` (${context.join(", ")})` : ""}`;
  const body = a.body === undefined ? "" : ` \`${JSON.stringify(a.body)}\``;
  return `${request} → ${a.status}${body}`;
}

function ruleExampleText(op: Operation, e: RuleExample): string {
  const text = "answers" in e ? e.answers.map((a) => answerText(op, a)).join("; ") : answerText(op, e);
  return e.note ? `${text} (${e.note})` : text;
}

/** A pair: A on the relation's operation, then B on `second` (the relation's `to` operation, else the same). */
function relationExampleText(op: Operation, second: Operation, e: RelationExample): string {
  const text = `${answerText(op, e.first)}, then ${answerText(second, e.second)}`;
  return e.note ? `${text} (${e.note})` : text;
}

/**
 * Markdown list items, indented under the rule's own item: each satisfying, then each violating
 * example. `second` is the operation of a relation's second answer (its `to`; default `op`).
 */
export function examplesText(
  op: Operation,
  examples: Examples<RuleExample> | Examples<RelationExample> | undefined,
  second: Operation = op,
): string[] {
  if (!examples) return [];
  const one = (e: RuleExample | RelationExample) =>
    "first" in e ? relationExampleText(op, second, e) : ruleExampleText(op, e);
  return [
    ...examples.satisfies.map((e) => `  - satisfies: ${one(e)}`),
    ...examples.violates.map((e) => `  - violates: ${one(e)}`),
  ];
}
