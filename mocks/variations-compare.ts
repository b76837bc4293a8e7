import { branchOf } from "../src/spec/field-paths.ts";
import type { JsonSchema } from "../src/spec/types.ts";

/**
 * What a client got from a mock with variations, against what it got without them: the
 * differences the variations do not explain. Explained are fields the schema does not name
 * (added fields: the client must ignore them), absent fields the schema does not require, and
 * key order (values are compared, not texts). Anything else (a value changed, a required field
 * lost, an item more or less) is listed, with its JSON pointer.
 */
export function unexplainedDifferences(
  varied: unknown,
  plain: unknown,
  schema: JsonSchema | undefined,
  at = "",
): string[] {
  if (Array.isArray(plain)) {
    if (!Array.isArray(varied) || varied.length !== plain.length)
      return [`${at || "/"}: ${describe(varied)} instead of ${plain.length} items`];
    const items = schema?.items as JsonSchema | undefined;
    return plain.flatMap((item, i) => unexplainedDifferences(varied[i], item, items, `${at}/${i}`));
  }
  if (plain === null || typeof plain !== "object")
    return Object.is(varied, plain)
      ? []
      : [`${at || "/"}: ${JSON.stringify(varied)} instead of ${JSON.stringify(plain)}`];
  if (varied === null || typeof varied !== "object" || Array.isArray(varied))
    return [`${at || "/"}: ${describe(varied)} instead of an object`];
  const own = branchOf(plain, schema).schema;
  const properties = own?.properties as Record<string, JsonSchema> | undefined;
  const required = new Set((own?.required as string[] | undefined) ?? []);
  const mapValues =
    typeof own?.additionalProperties === "object" ? (own.additionalProperties as JsonSchema) : undefined;
  const v = varied as Record<string, unknown>;
  const out: string[] = [];
  for (const [key, value] of Object.entries(plain)) {
    const child = properties?.[key] ?? mapValues;
    if (Object.hasOwn(v, key)) out.push(...unexplainedDifferences(v[key], value, child, `${at}/${key}`));
    else if (!properties || required.has(key)) out.push(`${at}/${key}: required, absent`);
  }
  for (const key of Object.keys(v)) {
    // A key the schema names that the plain answer lacked, or a new entry of a map: not a variation.
    const named = properties ? Object.hasOwn(properties, key) : true;
    if (named && !Object.hasOwn(plain, key)) out.push(`${at}/${key}: appeared`);
  }
  return out;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return `${value.length} items`;
  return value === null ? "null" : typeof value;
}
