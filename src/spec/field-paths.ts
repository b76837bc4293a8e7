/**
 * Field paths of an answer body, as the ledger (conformance/ledger/) keys them and the diff's
 * `--observed` looks them up: `meta.total`, `data[].price`, and for
 * the items of a `oneOf` told apart by a constant (the zdm stream's `type: smzdm`),
 * `data[type=smzdm].price`, so that zdm items are compared with zdm items only. Array items
 * collapse into one path: the ledger grows with the schema, not with the data.
 */
import type { JsonSchema } from "./types.ts";

/** The root path of an answer body. */
export const ROOT = "$";

/** Keys and constants are escaped so a path splits back into its parent unambiguously. */
const escapeSegment = (s: string) =>
  s.replace(/[%.[\]]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export const childPath = (parent: string, key: string): string =>
  parent === ROOT ? escapeSegment(key) : `${parent}.${escapeSegment(key)}`;

export const itemPath = (parent: string, label: string): string => `${parent}[${escapeSegment(label)}]`;

/** The parent of a path (`$` for a top-level field); undefined for the root. */
export function parentPath(path: string): string | undefined {
  if (path === ROOT) return undefined;
  if (path.endsWith("]")) return path.slice(0, path.lastIndexOf("["));
  const dot = path.lastIndexOf(".");
  return dot < 0 ? ROOT : path.slice(0, dot);
}

/** JSON's own types: integer and number are one (a price of 12 and one of 12.5 are the same field). */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "bigint" ? "number" : typeof value;
}

const constsOf = (schema: JsonSchema): [string, unknown][] =>
  Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)
    .filter(([, s]) => s && "const" in s)
    .map(([k, s]) => [k, s.const]);

/**
 * The branch of a `oneOf`/`anyOf` a value belongs to, told by the constants a branch declares
 * (`type: { const: smzdm }`): its label (`type=smzdm`) and schema. A value that matches no
 * branch's constants belongs to the one branch without any, when there is exactly one (the
 * category alerts); otherwise it is unlabelled and read without a schema.
 */
export function branchOf(
  value: unknown,
  schema: JsonSchema | undefined,
): { label: string; schema?: JsonSchema } {
  const branches = (schema?.oneOf ?? schema?.anyOf) as JsonSchema[] | undefined;
  if (!branches) return { label: "", ...(schema ? { schema } : {}) };
  const record = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  for (const branch of branches) {
    const consts = constsOf(branch);
    if (consts.length > 0 && consts.every(([k, c]) => record[k] === c)) {
      return { label: consts.map(([k, c]) => `${k}=${String(c)}`).join(","), schema: branch };
    }
  }
  const plain = branches.filter((b) => constsOf(b).length === 0);
  return plain.length === 1 && plain[0] ? { label: "", schema: plain[0] } : { label: "" };
}

/** The schema of a property, when the object's schema declares it. */
export function propertySchema(schema: JsonSchema | undefined, key: string): JsonSchema | undefined {
  const props = schema?.properties as Record<string, JsonSchema> | undefined;
  return props && Object.hasOwn(props, key) ? props[key] : undefined;
}

const MAX_SCHEMA_DEPTH = 12;

/**
 * Every field path a response schema allows, in the same scheme (an answer's paths are a subset
 * when it conforms): the paths a spec change can remove. `allOf` members and the branches of an
 * object-level `oneOf` add to the same path; the items of an array-level one are labelled as
 * `branchOf` labels them.
 */
export function schemaPaths(schema: JsonSchema | undefined): Set<string> {
  const out = new Set<string>();
  const walk = (s: JsonSchema | undefined, path: string, depth: number, seen: Set<JsonSchema>) => {
    out.add(path);
    if (!s || depth >= MAX_SCHEMA_DEPTH || seen.has(s)) return;
    const inner = new Set(seen).add(s);
    for (const member of (s.allOf ?? []) as JsonSchema[]) walk(member, path, depth, inner);
    for (const [key, child] of Object.entries((s.properties ?? {}) as Record<string, JsonSchema>))
      walk(child, childPath(path, key), depth + 1, inner);
    const items = s.items as JsonSchema | undefined;
    if (items) {
      const branches = (items.oneOf ?? items.anyOf) as JsonSchema[] | undefined;
      if (!branches) walk(items, itemPath(path, ""), depth + 1, inner);
      for (const branch of branches ?? []) {
        const consts = constsOf(branch);
        const label = consts.map(([k, c]) => `${k}=${String(c)}`).join(",");
        walk(branch, itemPath(path, label), depth + 1, inner);
      }
    } else {
      for (const branch of (s.oneOf ?? s.anyOf ?? []) as JsonSchema[]) walk(branch, path, depth, inner);
    }
  };
  walk(schema, ROOT, 0, new Set());
  return out;
}
