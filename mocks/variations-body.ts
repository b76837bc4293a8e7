/**
 * The body variations of `--variations`: fields added, optional fields absent, `content`
 * omitted, keys shuffled. The body is walked with its response schema, so "optional" is the
 * schema's (not in `required`), added names are ones the spec never uses, and a field a rule of
 * this request reads (x-conformance holding for the request) is never dropped.
 */
import type { Prng } from "../reference-server/data/prng.ts";
import { conditionHolds } from "../src/rules/evaluate.ts";
import type { Rule } from "../src/rules/types.ts";
import { branchOf } from "../src/spec/field-paths.ts";
import type { ParsedRequest } from "../src/spec/request.ts";
import type { Spec } from "../src/spec/spec.ts";
import type { JsonSchema, Operation } from "../src/spec/types.ts";
import { CONTENT_FIELD, type VariationId } from "./variations-catalogue.ts";

export type BodyVariationId = Extract<
  VariationId,
  "added-fields" | "optional-absent" | "content-omitted" | "keys-shuffled"
>;

export interface BodyVariationContext {
  spec: Spec;
  operation: Operation;
  request: ParsedRequest;
  random: Prng;
  /** The body variations drawn for this answer. */
  chosen: ReadonlySet<BodyVariationId>;
}

/** Names that look like fields a later v1 could add to a deal site's records and envelopes. */
const FUTURE_FIELD_NAMES = [
  "hot_score",
  "view_count",
  "updated_at",
  "source_site",
  "region_code",
  "is_pinned",
  "coupon_code",
  "badge_text",
  "expires_at",
  "lang",
  "merchant_id",
  "share_count",
];

/** Chance that optional-absent drops one optional field occurrence (records differ from each other). */
const DROP_CHANCE = 0.5;

/** The body with the chosen variations applied, and the ids of those that changed something. */
export function varyBody(
  body: unknown,
  schema: JsonSchema,
  ctx: BodyVariationContext,
): { body: unknown; applied: BodyVariationId[] } {
  const applied = new Set<BodyVariationId>();
  const walker: Walker = {
    ctx,
    applied,
    kept: keptPointers(ctx.spec, ctx.operation, ctx.request),
    addable: futureNames(ctx.spec),
  };
  const varied = walk(walker, body, schema, "");
  return { body: varied, applied: [...applied] };
}

interface Walker {
  ctx: BodyVariationContext;
  applied: Set<BodyVariationId>;
  /** Pointers (`*` for array items) that a rule holding for this request reads. */
  kept: ReadonlySet<string>;
  addable: readonly string[];
}

function walk(w: Walker, value: unknown, schema: JsonSchema | undefined, at: string): unknown {
  if (Array.isArray(value)) {
    const items = schema?.items as JsonSchema | undefined;
    return value.map((item) => walk(w, item, items, `${at}/*`));
  }
  if (value === null || typeof value !== "object") return value;
  const own = branchOf(value, schema).schema;
  const properties = own?.properties as Record<string, JsonSchema> | undefined;
  const mapValues = own?.additionalProperties;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (properties && dropped(w, own as JsonSchema, key, `${at}/${key}`)) continue;
    const childSchema =
      properties?.[key] ?? (typeof mapValues === "object" ? (mapValues as JsonSchema) : undefined);
    out[key] = walk(w, child, childSchema, properties ? `${at}/${key}` : `${at}/*`);
  }
  // Only objects with declared properties get a field: the entries of a map (meta.limits) are data.
  if (properties && w.ctx.chosen.has("added-fields")) addField(w, out);
  return w.ctx.chosen.has("keys-shuffled") ? shuffled(w, out) : out;
}

/** Whether a property is left out: optional in its schema, chosen, and read by no rule of this request. */
function dropped(w: Walker, schema: JsonSchema, key: string, pointer: string): boolean {
  const properties = schema.properties as Record<string, JsonSchema>;
  const required = (schema.required as string[] | undefined) ?? [];
  if (!Object.hasOwn(properties, key) || required.includes(key) || w.kept.has(pointer)) return false;
  const id: BodyVariationId = key === CONTENT_FIELD ? "content-omitted" : "optional-absent";
  if (!w.ctx.chosen.has(id)) return false;
  // content-omitted leaves content out everywhere, as rank does at limit <= 50; other optional
  // fields go one occurrence at a time, as records that lack them do.
  if (id === "optional-absent" && !w.ctx.random.chance(DROP_CHANCE)) return false;
  w.applied.add(id);
  return true;
}

function addField(w: Walker, out: Record<string, unknown>): void {
  const free = w.addable.filter((name) => !Object.hasOwn(out, name));
  if (free.length === 0) return;
  out[w.ctx.random.pick(free)] = futureValue(w.ctx.random, 0);
  w.applied.add("added-fields");
}

/** A value of any JSON type; objects nest once, so clients meet unknown fields below unknown fields. */
function futureValue(random: Prng, depth: number): unknown {
  switch (random.int(0, depth === 0 ? 5 : 3)) {
    case 0:
      return `v1-${random.int(1, 999)}`;
    case 1:
      return random.int(0, 100_000);
    case 2:
      return random.chance(0.5);
    case 3:
      return null;
    case 4:
      return [`tag-${random.int(1, 9)}`, random.int(1, 9)];
    default:
      return { [random.pick(FUTURE_FIELD_NAMES)]: futureValue(random, depth + 1) };
  }
}

function shuffled(w: Walker, obj: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(obj);
  for (let i = keys.length - 1; i > 0; i--) {
    const j = w.ctx.random.int(0, i);
    [keys[i], keys[j]] = [keys[j] as string, keys[i] as string];
  }
  const original = Object.keys(obj);
  // A draw that left the order as it was is rotated: keys-shuffled must show when listed.
  if (keys.length > 1 && keys.every((k, i) => k === original[i])) keys.push(keys.shift() as string);
  const out = Object.fromEntries(keys.map((k) => [k, obj[k]]));
  // JSON puts integer-like keys first whatever the order: a change is one the client sees.
  if (Object.keys(out).some((k, i) => k !== original[i])) w.applied.add("keys-shuffled");
  return out;
}

/** Future field names the spec names nowhere (no property, no parameter): they cannot clash. */
function futureNames(spec: Spec): string[] {
  const documented = documentedNames(spec.doc);
  for (const op of spec.operations) for (const p of op.parameters) documented.add(p.name);
  return FUTURE_FIELD_NAMES.filter((name) => !documented.has(name));
}

const namesCache = new WeakMap<object, Set<string>>();

/** Every key of every `properties` in the document. */
function documentedNames(doc: object): Set<string> {
  const cached = namesCache.get(doc);
  if (cached) return new Set(cached);
  const names = new Set<string>();
  const seen = new Set<object>();
  const visit = (node: unknown) => {
    if (node === null || typeof node !== "object" || seen.has(node)) return;
    seen.add(node);
    const props = (node as Record<string, unknown>).properties;
    if (props && typeof props === "object" && !Array.isArray(props))
      for (const k of Object.keys(props)) names.add(k);
    for (const child of Object.values(node)) visit(child);
  };
  visit(doc);
  namesCache.set(doc, names);
  return new Set(names);
}

/**
 * The pointers the rules holding for this request read in a 2xx answer (item fields as
 * `/data/*\/content`): what they demand present, compare, match, order or mirror. A field a
 * rule demands absent is not kept: dropping it cannot break that rule.
 */
export function keptPointers(spec: Spec, operation: Operation, request: ParsedRequest): Set<string> {
  const kept = new Set<string>();
  for (const rule of operation.rules) {
    if ((rule.then.status ?? 200) >= 400 || !conditionHolds(spec, operation, rule.when, request)) continue;
    for (const pointer of pointersRead(rule)) kept.add(pointer);
  }
  return kept;
}

function pointersRead(rule: Rule): string[] {
  const { each, order, present = [], mirrors = [] } = rule.then;
  const itemFields = [
    ...(each?.present ?? []),
    ...Object.keys(each?.fields ?? {}),
    ...Object.keys(each?.where ?? {}),
    ...(each?.matches?.fields ?? []),
  ].map((f) => `${each?.at ?? ""}/*/${f}`);
  const ordered = (order?.by ?? []).map((b) => `${order?.at ?? ""}/*/${b.field}`);
  return [...present, ...mirrors.map((m) => m.at), ...itemFields, ...ordered];
}
