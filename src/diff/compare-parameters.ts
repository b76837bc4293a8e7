import { compareContent } from "./compare-responses.ts";
import { compareSchema } from "./compare-schema.ts";
import {
  type At,
  type Collector,
  compareRest,
  down,
  isObject,
  type Json,
  obj,
  same,
  show,
} from "./context.ts";
import { defaultOf } from "./value-sets.ts";

interface Located {
  param: Json;
  tokens: string[];
}

/**
 * Path-item parameters overridden by operation parameters, keyed by `in name`. Header names are
 * case-insensitive; a path parameter is keyed by its place in the template, since renaming
 * `{act}` leaves the URL clients call unchanged.
 */
function parametersOf(pathItem: Json, op: Json, pathTokens: string[], method: string): Map<string, Located> {
  const out = new Map<string, Located>();
  const template = [...String(pathTokens[1]).matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const add = (list: unknown, tokens: string[]) => {
    if (!Array.isArray(list)) return;
    for (const [i, p] of list.entries()) {
      if (!isObject(p)) continue;
      const name = p.in === "header" ? String(p.name).toLowerCase() : String(p.name);
      const place = template.indexOf(name);
      const key = p.in === "path" && place >= 0 ? `path #${place + 1}` : `${String(p.in)} ${name}`;
      out.set(key, { param: p, tokens: [...tokens, "parameters", String(i)] });
    }
  };
  add(pathItem.parameters, pathTokens);
  add(op.parameters, [...pathTokens, method]);
  return out;
}

function label(p: Json): string {
  return `${String(p.in)} ${String(p.name)}`;
}

const HANDLED = new Set([
  "name",
  "in",
  "required",
  "schema",
  "style",
  "explode",
  "allowReserved",
  "deprecated",
  "x-words",
  "content",
]);

export function compareParameters(
  c: Collector,
  base: { item: Json; op: Json },
  head: { item: Json; op: Json },
  at: At,
  method: string,
): void {
  const pb = parametersOf(base.item, base.op, at.base.slice(0, 2), method);
  const ph = parametersOf(head.item, head.op, at.head.slice(0, 2), method);
  for (const [key, b] of pb) {
    const h = ph.get(key);
    const where: At = { ...at, base: b.tokens, head: h?.tokens ?? b.tokens, parameter: label(b.param) };
    if (!h) {
      c.add("request-parameter-removed", where, `${label(b.param)} removed`, "base");
      continue;
    }
    compareParameter(c, b.param, h.param, { ...where, field: label(b.param) });
  }
  for (const [key, h] of ph) {
    if (pb.has(key)) continue;
    const where: At = { ...at, base: at.base, head: h.tokens, parameter: key };
    if (h.param.required === true)
      c.add("request-parameter-added-required", where, `${key} added as required`);
    else c.add("request-parameter-added", where, `${key} added`);
  }
}

/**
 * A one-value list of primitives (`type: array, maxItems: 1`) is written on the wire exactly as the
 * primitive in every style (`tag=x`, `x` in a path or header): against a parameter that was (or
 * becomes) that primitive, its item is what travels.
 */
function asWireValues(b: Json, h: Json): [Json, Json] {
  const oneValueList = (s: unknown): s is Json =>
    isObject(s) && s.type === "array" && s.maxItems === 1 && isObject(s.items) && !isObject(s.items.items);
  const isList = (s: unknown) => isObject(s) && [s.type].flat().includes("array");
  if (oneValueList(b.schema) && !isList(h.schema)) return [{ ...b, schema: b.schema.items }, h];
  if (oneValueList(h.schema) && !isList(b.schema)) return [b, { ...h, schema: h.schema.items }];
  return [b, h];
}

function compareParameter(c: Collector, bAsWritten: Json, hAsWritten: Json, at: At): void {
  const [b, h] = asWireValues(bAsWritten, hAsWritten);
  if (b.name !== h.name)
    c.add(
      "documentation-changed",
      down(at, "name"),
      `${at.parameter} renamed ${show(b.name)} → ${show(h.name)}`,
    );
  if (b.required !== true && h.required === true)
    c.add("request-parameter-became-required", down(at, "required"), `${at.parameter} is now required`);
  if (b.required === true && h.required !== true)
    c.add("request-parameter-became-optional", down(at, "required"), `${at.parameter} is now optional`);
  const sb = serialization(b);
  const sh = serialization(h);
  for (const key of ["style", "explode", "allowReserved"] as const) {
    if (!same(sb[key], sh[key]))
      c.add(
        "request-parameter-style-changed",
        down(at, key),
        `${at.parameter} ${key} ${show(b[key])} → ${show(h[key])}`,
      );
  }
  if (b.deprecated !== true && h.deprecated === true)
    c.add("documentation-changed", down(at, "deprecated"), `${at.parameter} is now deprecated`);
  // `content` instead of `schema` writes the value as that media type (JSON), not as form text.
  if (isObject(b.content) !== isObject(h.content)) {
    const how = (p: Json) => (isObject(p.content) ? Object.keys(p.content).join(", ") : "schema");
    c.add(
      "request-parameter-style-changed",
      down(at, isObject(h.content) ? "content" : "schema"),
      `${at.parameter} now written as ${how(h)}, was ${how(b)}`,
    );
  } else if (isObject(b.content) && isObject(h.content))
    compareContent(c, b.content, h.content, { ...down(at, "content"), field: at.parameter }, "request");
  else if (b.required === true && !same(defaultOf(obj(b.schema)), defaultOf(obj(h.schema)))) {
    // A required parameter is always sent: its default is never used (oasdiff agrees). Made
    // optional with a default, it still changes no call a client made: every one sent it.
    const why = h.required === true ? "required: never used" : "was required: every existing call sends it";
    const msg = `${at.parameter} default ${show(defaultOf(obj(b.schema)))} → ${show(defaultOf(obj(h.schema)))} (${why})`;
    c.add("documentation-changed", down(at, "schema", "default"), msg);
    const { default: _b, ...bs } = obj(b.schema);
    const { default: _h, ...hs } = obj(h.schema);
    compareSchema(c, bs, hs, down(at, "schema"), "request");
  } else compareSchema(c, b.schema, h.schema, down(at, "schema"), "request");
  compareWords(c, b["x-words"], h["x-words"], down(at, "x-words"));
  compareRest(c, b, h, at, HANDLED);
}

/**
 * How a parameter is written on the wire, with OpenAPI's defaults applied: style `form` in the
 * query and cookies, `simple` in the path and headers; explode true for `form` only. explode
 * changes only how arrays and objects are written, so on a single value it is no change.
 */
function serialization(p: Json): { style: unknown; explode: unknown; allowReserved: boolean } {
  const style = p.style ?? (p.in === "query" || p.in === "cookie" ? "form" : "simple");
  const types = typesWritten(p.schema, 0);
  // Without a stated type (a bare composition), only an explode written differently differs.
  const explode =
    types.length === 0
      ? p.explode
      : types.includes("array") || types.includes("object")
        ? (p.explode ?? style === "form")
        : undefined;
  return { style, explode, allowReserved: p.allowReserved === true };
}

/** The types a parameter schema states, itself or in its allOf/oneOf/anyOf branches. */
function typesWritten(schema: unknown, depth: number): string[] {
  if (!isObject(schema) || depth > 4) return [];
  const own = [schema.type ?? []].flat().map(String);
  const branches = ["allOf", "oneOf", "anyOf"].flatMap((k) => (Array.isArray(schema[k]) ? schema[k] : []));
  return [...own, ...branches.flatMap((x) => typesWritten(x, depth + 1))];
}

/**
 * x-words is part of the request syntax: fewer separators or lower word bounds refuse or
 * misread what clients send; a different match or combine mode changes what a query selects.
 */
function compareWords(c: Collector, bRaw: unknown, hRaw: unknown, at: At): void {
  if (same(bRaw, hRaw)) return;
  const b = obj(bRaw);
  const h = obj(hRaw);
  const p = at.parameter;
  if (bRaw === undefined || hRaw === undefined) {
    const msg = `${p} x-words ${bRaw === undefined ? "added" : "removed"}: words are split differently`;
    c.add("request-words-semantics-changed", at, msg, hRaw === undefined ? "base" : "head");
    return;
  }
  const sb = Array.isArray(b.separators) ? b.separators : [];
  const sh = Array.isArray(h.separators) ? h.separators : [];
  const lost = sb.filter((s) => !sh.includes(s));
  const gained = sh.filter((s) => !sb.includes(s));
  if (lost.length)
    c.add(
      "request-words-narrowed",
      down(at, "separators"),
      `${p} separator ${lost.map(show).join(", ")} removed`,
    );
  // A new separator accepts no request that was refused: it splits a word that was one, so a
  // query that held it now selects something else (and may exceed max_words).
  if (gained.length)
    c.add(
      "request-words-semantics-changed",
      down(at, "separators"),
      `${p} separator ${gained.map(show).join(", ")} added: a word holding it is now split`,
    );
  for (const key of ["max_words", "max_word_length"]) {
    const vb = Number(b[key] ?? Number.POSITIVE_INFINITY);
    const vh = Number(h[key] ?? Number.POSITIVE_INFINITY);
    if (vb === vh) continue;
    const rule = vh < vb ? "request-words-narrowed" : "request-words-widened";
    c.add(rule, down(at, key), `${p} ${key} ${show(b[key])} → ${show(h[key])}`);
  }
  for (const key of ["trim", "drop_empty", "match", "combine"]) {
    if (!same(b[key], h[key]))
      c.add(
        "request-words-semantics-changed",
        down(at, key),
        `${p} ${key} ${show(b[key])} → ${show(h[key])}`,
      );
  }
  compareRest(
    c,
    b,
    h,
    at,
    new Set(["separators", "max_words", "max_word_length", "trim", "drop_empty", "match", "combine"]),
  );
}
