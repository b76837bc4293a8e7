/**
 * Answers that agree across operations, as the relations crossing operations (x-relations with
 * `to`) demand. The mock serves examples dated once: the feed example's alerts are not in the
 * rank example, and the legacy rank file's example is not the rank's, so left alone the mock
 * would contradict itself where a real API cannot. Two mends, both read from the relations:
 * - a `superset` from another operation: B's answer also holds the items of that operation's
 *   examples its filter owes (the whole-site feed's alerts inside the asked rank window);
 * - an `equal` to another operation: A is served as B's answer to A's request varied (the
 *   legacy file of an act is the rank of that act at limit 50).
 */
import { itemPasses } from "../src/rules/evaluate.ts";
import { get } from "../src/rules/pointer.ts";
import type { Relation } from "../src/rules/types.ts";
import type { ParsedRequest } from "../src/spec/request.ts";
import type { Spec } from "../src/spec/spec.ts";
import type { Operation } from "../src/spec/types.ts";
import { setAt } from "./pointer-edit.ts";

type Item = Record<string, unknown>;

/** The items at `at` of every documented 200 example of an operation. */
function exampleItems(spec: Spec, operationId: string, at: string): Item[] {
  const content = spec.response(operationId, 200)?.content ?? {};
  return Object.values(content).flatMap((media) =>
    Object.values(media.examples ?? {}).flatMap((example) => {
      const items = get(example.value, at);
      return Array.isArray(items) ? items.filter((i): i is Item => i !== null && typeof i === "object") : [];
    }),
  );
}

/**
 * B's answer (an operation another relates to by `superset`) with the source operation's example
 * items its filter owes added, once each; shaping then orders and cuts them.
 */
export function withOwedItems(
  spec: Spec,
  operation: Operation,
  request: ParsedRequest,
  now: number,
  body: unknown,
): unknown {
  for (const { operation: from, relation } of spec.relations()) {
    const filter = relation.expect.superset;
    if (relation.to?.operation !== operation.operationId || !filter || filter === true) continue;
    const at = relation.to.at ?? relation.at ?? "/data";
    const items = get(body, at);
    if (!Array.isArray(items)) continue;
    const key = relation.key ?? "id";
    const have = new Set(items.map((i) => String((i as Item)?.[key])));
    const b = { operation, request, status: 200, body, sentAt: now, receivedAt: now };
    const owed = exampleItems(spec, from.operationId, relation.at ?? "/data").filter(
      (i) => !have.has(String(i[key])) && itemPasses(spec, filter, b, i),
    );
    if (owed.length > 0) body = setAt(body, at, [...items, ...structuredClone(owed)]);
  }
  return body;
}

/** The relation by which an operation's answer equals another's (every variation a `set`). */
function equalRelation(operation: Operation): Relation | undefined {
  return operation.relations.find(
    (r) => r.to && r.expect.equal && Object.values(r.vary).every((v) => "set" in v),
  );
}

/**
 * For an operation whose answer must equal another's: that operation and the path and query of
 * the request to ask it (A's parameters it declares too, then the relation's values).
 */
export function equalSource(
  spec: Spec,
  operation: Operation,
  request: ParsedRequest,
): { relation: Relation; operation: Operation; path: string } | undefined {
  const relation = equalRelation(operation);
  if (!relation?.to) return undefined;
  const target = spec.operation(relation.to.operation);
  const query = new URLSearchParams();
  let path = target.path;
  for (const p of target.parameters) {
    const vary = relation.vary[p.name];
    const value = vary && "set" in vary ? String(vary.set) : request.raw[p.name];
    if (value === undefined) continue;
    if (p.in === "path") path = path.replace(`{${p.name}}`, encodeURIComponent(value));
    else if (p.in === "query") query.set(p.name, value);
  }
  const qs = query.toString();
  return { relation, operation: target, path: qs ? `${path}?${qs}` : path };
}

/** B's items placed where A holds them (a bare array when A's pointer is the body). */
export function asFirstAnswer(relation: Relation, bBody: unknown): unknown {
  return setAt({}, relation.at ?? "/data", get(bBody, relation.to?.at ?? relation.at ?? "/data"));
}
