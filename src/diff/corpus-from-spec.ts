/**
 * Values the edit corpus (corpus-cases.ts) restates from the current spec: a whole schema written
 * another way, a field rewritten in another form, the next version. They are built from the loaded
 * openapi/openapi.yaml rather than copied, so a release that tightens a field (1.2.0 gave the dates
 * `format: date` and a stricter pattern) leaves each case testing what its name says instead of
 * comparing the spec against an old copy of itself.
 */
import { type Doc, spec } from "./testing.ts";

const CURRENT = spec();

/** A fresh copy of one of the current spec's component schemas. */
export function currentSchema(name: string): Doc {
  const s = CURRENT.components.schemas[name];
  if (s === undefined) throw new Error(`the spec has no schema ${name}`);
  return structuredClone(s);
}

/**
 * The same value with every object's keys, and every `required` list, in reverse order: what YAML
 * and JSON Schema give no meaning to. Other arrays (enums, oneOf branches) keep their order.
 */
export function reversedKeys(value: Doc): Doc {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Doc = {};
  for (const k of Object.keys(value).reverse())
    out[k] = k === "required" && Array.isArray(value[k]) ? [...value[k]].reverse() : reversedKeys(value[k]);
  return out;
}

/**
 * The properties of a schema that `keep` selects, each one's own `description` dropped (prose, not
 * a constraint), and the `required` names among them, in the schema's order.
 */
export function partWithoutDescriptions(schema: Doc, keep: (name: string) => boolean): Doc {
  const properties: Doc = {};
  for (const [k, v] of Object.entries(schema.properties as Doc)) {
    if (!keep(k)) continue;
    const { description: _, ...rest } = v as Doc;
    properties[k] = structuredClone(rest);
  }
  const required = (schema.required as string[]).filter(keep);
  return { type: "object", required, properties };
}

/**
 * A nullable field (`type: [T, "null"]`) written as `oneOf` a T branch, which keeps the field's
 * other keywords (format, pattern, bounds), and a null branch; the description stays outside.
 */
export function nullableAsOneOf(field: Doc): Doc {
  const { type, description, ...constraints } = field;
  const types = Array.isArray(type) ? type.filter((t: unknown) => t !== "null") : [type];
  if (!Array.isArray(type) || !type.includes("null") || types.length !== 1)
    throw new Error(`not a nullable field of one type: ${JSON.stringify(type)}`);
  const oneOf = [{ type: types[0], ...structuredClone(constraints) }, { type: "null" }];
  return description === undefined ? { oneOf } : { oneOf, description };
}

/** The current info.version with its minor part raised: the next release's label. */
export function nextMinorVersion(): string {
  const m = /^(\d+)\.(\d+)\.\d+$/.exec(String(CURRENT.info.version));
  if (!m) throw new Error(`info.version is not x.y.z: ${CURRENT.info.version}`);
  return `${m[1]}.${Number(m[2]) + 1}.0`;
}
