import {
  compareBounds,
  compareNot,
  formatAdmitsAll,
  lowerBounds,
  typesOf,
  upperBounds,
} from "./compare-bounds.ts";
import {
  type At,
  brief,
  type Collector,
  compareRest,
  type Direction,
  down,
  isObject,
  type Json,
  same,
  show,
} from "./context.ts";
import { enumDecides, VALUE_KEYWORDS } from "./enum-values.ts";
import { absorbMissing } from "./normalize-schema.ts";
import { comparePatterns } from "./patterns.ts";
import { writtenNode } from "./pointer.ts";
import type { RuleId } from "./rules.ts";
import {
  compareValueSets,
  defaultOf,
  enumRespelled,
  finiteValues,
  hasComposition,
  isScalarSchema,
  keywordValues,
} from "./value-sets.ts";

/**
 * Direction-aware comparison of two dereferenced JSON Schemas. A request schema constrains what
 * clients send: narrowing it breaks them. A response schema constrains what clients read:
 * widening it breaks them (like github/rest-api-description's breaking-change script and oasdiff).
 */
export function compareSchema(c: Collector, b: unknown, h: unknown, at: At, dir: Direction): void {
  // A schema written on one side only: the other side allows anything (the empty schema).
  walk(c, b ?? (isObject(h) ? {} : b), h ?? (isObject(b) ? {} : h), at, dir, new Set());
}

const HANDLED = new Set([
  "type",
  "nullable",
  "enum",
  "const",
  ...lowerBounds(),
  ...upperBounds(),
  "pattern",
  "format",
  "default",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "oneOf",
  "anyOf",
  "allOf",
  "deprecated",
  "not",
  "multipleOf",
  "uniqueItems",
  "readOnly",
  "writeOnly",
]);

function walk(
  c: Collector,
  bAsWritten: unknown,
  hAsWritten: unknown,
  at: At,
  dir: Direction,
  seen: Set<unknown>,
): void {
  if (!isObject(bAsWritten) || !isObject(hAsWritten) || seen.has(bAsWritten)) return;
  // Dereferenced schemas share objects and may be cyclic: compare each base node once per path.
  const inner = new Set(seen).add(bAsWritten);
  // The same schema spelled with allOf, a one-branch oneOf or a oneOf of types is one schema.
  const [b, h] = absorbMissing(bAsWritten, hAsWritten);
  if (comparedAsSets(b, h)) {
    compareValues(c, b, h, at, dir);
    compareDefault(c, b, h, at, dir);
    compareAccess(c, b, h, at, dir);
    if (b.deprecated !== true && h.deprecated === true)
      c.add("documentation-changed", down(at, "deprecated"), `${name(at)}now deprecated`);
    return;
  }
  if (enumDecides(b, h)) {
    // The same enum, every value admitted alike: a new pattern or bound is a note, not a change.
    for (const key of VALUE_KEYWORDS.filter((k) => !same(b[k], h[k])))
      c.add(
        "documentation-changed",
        down(at, key),
        `${name(at)}${key} ${show(b[key])} → ${show(h[key])} (every enum value still allowed)`,
        key in h ? "head" : "base",
      );
  } else {
    compareTypes(c, b, h, at, dir);
    compareEnums(c, b, h, at, dir);
    compareBounds(c, b, h, at, dir);
    compareStrings(c, b, h, at, dir);
  }
  compareDefault(c, b, h, at, dir);
  compareAccess(c, b, h, at, dir);
  compareNot(c, b, h, at, dir);
  compareProperties(c, b, h, at, dir, inner);
  compareAdditional(c, b, h, at, dir, inner);
  // Absent items allow any item: compared as the empty schema.
  const ib = b.items ?? (isObject(h.items) ? {} : undefined);
  const ih = h.items ?? (isObject(b.items) ? {} : undefined);
  if (isObject(ib) && isObject(ih)) walk(c, ib, ih, sub(at, ["items"], "[]"), dir, inner);
  else if (!same(b.items, h.items)) {
    c.add(
      "unclassified-change",
      down(at, "items"),
      `${name(at)}items ${brief(b.items)} → ${brief(h.items)}`,
      h.items === undefined ? "base" : "head",
    );
  }
  compareCompositions(c, b, h, at, dir, inner);
  const allB = Array.isArray(b.allOf) ? b.allOf : [];
  const allH = Array.isArray(h.allOf) ? h.allOf : [];
  if (allB.length === allH.length) {
    for (const [i, s] of allB.entries()) walk(c, s, allH[i], down(at, "allOf", String(i)), dir, inner);
  } else if (!same(allB, allH)) compareRest(c, { allOf: allB }, { allOf: allH }, at, new Set());
  if (b.deprecated !== true && h.deprecated === true) {
    c.add("documentation-changed", down(at, "deprecated"), `${name(at)}now deprecated`);
  }
  compareRest(c, b, h, at, HANDLED);
}

/**
 * Scalar schemas with a composition on either side, or an enum on one side spelled as a pattern on
 * the other, are compared as the sets of values they admit (value-sets.ts): keyword by keyword,
 * an equivalent split reads as many changes and an overlapping oneOf as none. A format that
 * differs is left to the keyword rules (a format is a name, not a check run here).
 */
function comparedAsSets(b: Json, h: Json): boolean {
  if (same(b, h) || !isScalarSchema(b) || !isScalarSchema(h)) return false;
  if (!hasComposition(b) && !hasComposition(h) && !enumRespelled(b, h)) return false;
  return same([...keywordValues(b, "format")].sort(), [...keywordValues(h, "format")].sort());
}

function compareValues(c: Collector, b: Json, h: Json, at: At, dir: Direction): void {
  const change = compareValueSets(b, h);
  if (change.undecided) {
    c.add("values-undecided", at, `${name(at)}respelled; no value shows whether what it admits changed`);
    return;
  }
  if (change.lost !== undefined) {
    const msg = `${name(at)}${show(change.lost)} ${dir === "request" ? "no longer accepted" : "no longer sent"}`;
    c.add(dir === "request" ? "request-values-narrowed" : "response-values-narrowed", at, msg);
  }
  if (change.gained === undefined) return;
  if (dir === "request") {
    c.add("request-values-widened", at, `${name(at)}${show(change.gained)} now accepted`);
    return;
  }
  // The response rules of the keyword walk, by what the old schema listed: a null gained is
  // nullability, a const grown breaks routing, an enum grown is a warning (see README Decisions).
  const gained =
    change.gained === null
      ? compareValueSets(b, { allOf: [h, { not: { type: "null" } }] }).gained
      : change.gained;
  if (change.gained === null) c.add("response-field-became-nullable", at, `${name(at)}may now be null`);
  if (gained === undefined) return;
  const msg = `${name(at)}${show(gained)} may now arrive`;
  const listed = finiteValues(b);
  if (listed?.length === 1) c.add("response-const-widened", at, msg);
  else if (listed !== undefined && typeof gained === typeof listed[0])
    c.add("response-enum-value-added", at, msg);
  else c.add("response-values-widened", at, msg);
}

/**
 * A request default is what the server assumes when the client says nothing: changing, adding or
 * removing it changes what an existing call means (oasdiff agrees). In a response it is an
 * annotation: the server sends the value. A default stated in a composition's part is the same
 * default as one stated beside it.
 */
function compareDefault(c: Collector, b: Json, h: Json, at: At, dir: Direction): void {
  const db = defaultOf(b);
  const dh = defaultOf(h);
  if (same(db, dh)) return;
  const msg = `${name(at)}default ${show(db)} → ${show(dh)}`;
  c.add(dir === "request" ? "default-changed" : "documentation-changed", down(at, "default"), msg);
}

function name(at: At): string {
  return at.field ? `${at.field}: ` : "";
}

function sub(at: At, tokens: string[], suffix: string): At {
  return { ...down(at, ...tokens), field: `${at.field ?? ""}${suffix}` };
}

/** Whether type `t` is allowed by the set: integer is a subset of number. */
function allows(set: Set<string>, t: string): boolean {
  return set.has(t) || (t === "integer" && set.has("number"));
}

function compareTypes(c: Collector, b: Json, h: Json, at: At, dir: Direction): void {
  const tb = typesOf(b);
  const th = typesOf(h);
  if (tb === undefined && th === undefined) return;
  const label = (t: Set<string> | undefined) => (t ? [...t].join("|") : "any");
  const where = down(at, "type");
  const change = `${name(at)}type ${label(tb)} → ${label(th)}`;
  // "Gained" are values head allows that base did not; "lost" the reverse.
  const gained = th === undefined ? ["any"] : [...th].filter((t) => tb !== undefined && !allows(tb, t));
  const lost = tb === undefined ? ["any"] : [...tb].filter((t) => th !== undefined && !allows(th, t));
  if (dir === "response") {
    if (gained.length === 1 && gained[0] === "null")
      c.add("response-field-became-nullable", where, `${name(at)}may now be null`);
    else if (gained.length > 0) c.add("response-type-changed", where, change);
    else if (lost.length > 0) c.add("response-type-narrowed", where, change);
  } else if (lost.length > 0) c.add("request-type-changed", where, change);
  else if (gained.length > 0) c.add("request-type-widened", where, change);
}

function enumOf(s: Json): unknown[] | undefined {
  if (Array.isArray(s.enum)) return s.enum;
  if ("const" in s) return [s.const];
  return undefined;
}

function compareEnums(c: Collector, b: Json, h: Json, at: At, dir: Direction): void {
  const eb = enumOf(b);
  const eh = enumOf(h);
  if (same(eb, eh)) return;
  const where = down(at, "enum" in h || "enum" in b ? "enum" : "const");
  const minus = (x: unknown[], y: unknown[]) => x.filter((v) => !y.some((w) => same(v, w)));
  if (eb !== undefined && eh !== undefined) {
    const added = minus(eh, eb);
    const removed = minus(eb, eh);
    const list = (xs: unknown[]) => xs.map(show).join(", ");
    if (dir === "request") {
      if (removed.length)
        c.add("request-enum-value-removed", where, `${name(at)}no longer accepts ${list(removed)}`);
      if (added.length) c.add("request-enum-value-added", where, `${name(at)}now accepts ${list(added)}`);
    } else if (added.length && eb.length === 1 && eh.length > 1) {
      // One fixed value grew into several: clients hardcode a const (and route items by it when
      // it is a discriminator), so the new value is misread, not handled as "unknown".
      const kept = removed.length ? `${list(removed)} replaced by` : `${list(eb)} widened to`;
      c.add("response-const-widened", where, `${name(at)}${kept} ${list(eh)}`);
    } else if (added.length && removed.length) {
      // A value renamed: clients that match the old value now meet one they do not know.
      c.add("response-enum-value-changed", where, `${name(at)}${list(removed)} replaced by ${list(added)}`);
    } else {
      if (added.length) c.add("response-enum-value-added", where, `${name(at)}may now be ${list(added)}`);
      if (removed.length)
        c.add("response-enum-value-removed", where, `${name(at)}is no longer ${list(removed)}`);
    }
  } else if (eh !== undefined) {
    // An enum appears: the value is restricted to a list.
    const msg = `${name(at)}now restricted to ${eh.map(show).join(", ")}`;
    c.add(dir === "request" ? "request-enum-value-removed" : "response-enum-value-removed", where, msg);
  } else {
    const msg = `${name(at)}no longer restricted to ${(eb ?? []).map(show).join(", ")}`;
    const rule =
      dir === "request"
        ? "request-enum-value-added"
        : eb?.length === 1
          ? "response-const-widened"
          : "response-enum-value-added";
    c.add(rule, where, msg, "base");
  }
}

/**
 * readOnly and writeOnly say in which direction a property travels. A response property made
 * writeOnly is no longer sent (a removal); a request property made readOnly must no longer be
 * sent (the server may ignore or refuse it). The other two moves change nothing on the wire.
 */
function compareAccess(c: Collector, b: Json, h: Json, at: At, dir: Direction): void {
  const hidden = dir === "response" ? "writeOnly" : "readOnly";
  for (const key of ["readOnly", "writeOnly"]) {
    if ((b[key] === true) === (h[key] === true)) continue;
    const msg = `${name(at)}${key} ${show(b[key])} → ${show(h[key])}`;
    const side = h[key] === true ? "head" : "base";
    if (key !== hidden) c.add("documentation-changed", down(at, key), msg, side);
    else if (h[key] === true)
      c.add(
        dir === "response" ? "response-field-removed" : "request-property-removed",
        down(at, key),
        `${msg}: no longer ${dir === "response" ? "sent" : "accepted"}`,
      );
    else
      c.add(
        dir === "response" ? "response-field-added" : "request-property-added",
        down(at, key),
        `${msg}: now ${dir === "response" ? "sent" : "accepted"}`,
        side,
      );
  }
}

/**
 * additionalProperties: `false` closes an object, a schema types the entries of a map, absent
 * or `true` is any entry (compared as the empty schema). Closing a request object refuses
 * properties clients may send; closing a response object is a promise clients need not act on
 * (they ignore fields they do not know), unless the entries were typed data (a map emptied).
 * Opening a closed object is info both ways for the same reason.
 */
function compareAdditional(c: Collector, b: Json, h: Json, at: At, dir: Direction, seen: Set<unknown>): void {
  const open = (v: unknown) => (v === undefined || v === true ? {} : v);
  const ab = open(b.additionalProperties);
  const ah = open(h.additionalProperties);
  if (same(ab, ah)) return;
  const where = down(at, "additionalProperties");
  const msg = `${name(at)}additionalProperties ${brief(b.additionalProperties)} → ${brief(h.additionalProperties)}`;
  if (isObject(ab) && isObject(ah)) walk(c, ab, ah, sub(at, ["additionalProperties"], ".*"), dir, seen);
  else if (ah === false) {
    const typedMap = isObject(ab) && Object.keys(ab).length > 0;
    const rule =
      dir === "request"
        ? "request-properties-closed"
        : typedMap
          ? "response-field-removed"
          : "response-properties-closed";
    c.add(rule, where, msg);
  } else if (ab === false) c.add("properties-opened", where, msg, "head");
  else c.add("unclassified-change", where, msg);
}

/**
 * A pattern or format on a request refuses what clients may send when it appears or changes; on
 * a response, removing or changing one lets through strings clients may not parse. A changed
 * pattern is judged by witness strings (patterns.ts); without one it is a warning.
 */
function compareStrings(c: Collector, b: Json, h: Json, at: At, dir: Direction): void {
  if (b.pattern !== h.pattern) {
    const bp = typeof b.pattern === "string" ? b.pattern : undefined;
    const hp = typeof h.pattern === "string" ? h.pattern : undefined;
    const change = bp !== undefined && hp !== undefined ? comparePatterns(bp, hp) : undefined;
    const narrower = hp !== undefined && (bp === undefined || change?.lost !== undefined);
    const wider = bp !== undefined && (hp === undefined || change?.gained !== undefined);
    const witness =
      change?.lost !== undefined
        ? `: ${show(change.lost)} no longer matches`
        : change?.gained !== undefined
          ? `: ${show(change.gained)} now matches`
          : "";
    const msg = `${name(at)}pattern ${show(bp)} → ${show(hp)}${witness}`;
    const where = down(at, "pattern");
    const side = hp === undefined ? "base" : "head";
    if (dir === "request" && narrower) c.add("request-pattern-narrowed", where, msg, side);
    else if (dir === "response" && wider) c.add("response-pattern-widened", where, msg, side);
    else if (dir === "request" && wider) c.add("request-pattern-widened", where, msg, side);
    else if (dir === "response" && narrower) c.add("response-pattern-narrowed", where, msg, side);
    else c.add("pattern-changed", where, msg, side);
  }
  if (b.format !== h.format) {
    const side = h.format === undefined ? "base" : "head";
    const msg = `${name(at)}format ${show(b.format)} → ${show(h.format)}`;
    // int32 on a value bounded 1..1000 refuses nothing: the bounds already say more. A request
    // format is judged on what the old schema accepted, a response one on what the new may send.
    const admitsAll = dir === "request" ? formatAdmitsAll(h.format, b) : formatAdmitsAll(b.format, h);
    if (admitsAll) {
      c.add(
        "documentation-changed",
        down(at, "format"),
        `${msg} (admits every value the bounds allow)`,
        side,
      );
      return;
    }
    const breaks = dir === "request" ? h.format !== undefined : b.format !== undefined;
    const rule =
      dir === "request"
        ? breaks
          ? "request-format-narrowed"
          : "request-format-widened"
        : breaks
          ? "response-format-widened"
          : "response-format-narrowed";
    c.add(rule, down(at, "format"), msg, side);
  }
}

function compareProperties(c: Collector, b: Json, h: Json, at: At, dir: Direction, seen: Set<unknown>): void {
  const pb = isObject(b.properties) ? b.properties : {};
  const ph = isObject(h.properties) ? h.properties : {};
  const rb = new Set(Array.isArray(b.required) ? b.required.map(String) : []);
  const rh = new Set(Array.isArray(h.required) ? h.required.map(String) : []);
  // Under a body root the first property reads `200 application/json body data`, deeper ones `data.meta`.
  const field = (p: string) =>
    !at.field ? p : at.field.endsWith(" body") ? `${at.field} ${p}` : `${at.field}.${p}`;
  for (const p of Object.keys(pb)) {
    const where = { ...down(at, "properties", p), field: field(p) };
    if (!(p in ph)) {
      if (dir === "response") c.add("response-field-removed", where, `${field(p)} removed`, "base");
      else c.add("request-property-removed", where, `${field(p)} removed`, "base");
      continue;
    }
    walk(c, pb[p], ph[p], where, dir, seen);
  }
  for (const p of Object.keys(ph)) {
    if (p in pb) continue;
    const where = { ...down(at, "properties", p), field: field(p) };
    if (dir === "response") c.add("response-field-added", where, `${field(p)} added`);
    else if (rh.has(p)) c.add("request-property-added-required", where, `${field(p)} added as required`);
    else c.add("request-property-added", where, `${field(p)} added`);
  }
  for (const p of rb) {
    if (rh.has(p) || (dir === "response" && !(p in ph) && p in pb)) continue;
    const where = down(at, "required");
    if (dir === "response")
      c.add("response-field-became-optional", where, `${field(p)} is no longer required`, "base");
  }
  for (const p of rh) {
    if (rb.has(p) || !(p in pb)) continue;
    const where = down(at, "required");
    if (dir === "response") c.add("response-field-became-required", where, `${field(p)} is now required`);
    else c.add("request-property-became-required", where, `${field(p)} is now required`);
  }
}

/**
 * Greedy pairs of branches by likeness: equal schemas first, then the largest share of property
 * names (Jaccard), when that share is more than half. Branches without properties stay unpaired.
 */
function pairByLikeness(fb: number[], fh: number[], bb: unknown[], hh: unknown[]): [number, number][] {
  const names = (s: unknown) =>
    new Set(isObject(s) && isObject(s.properties) ? Object.keys(s.properties) : []);
  const scored = fb.flatMap((i) =>
    fh.map((j) => {
      if (same(bb[i], hh[j])) return { i, j, score: 2 };
      const [nb, nh] = [names(bb[i]), names(hh[j])];
      const shared = [...nb].filter((n) => nh.has(n)).length;
      const all = new Set([...nb, ...nh]).size;
      return { i, j, score: all === 0 ? 0 : shared / all };
    }),
  );
  const out: [number, number][] = [];
  const usedB = new Set<number>();
  const usedH = new Set<number>();
  for (const { i, j, score } of scored.sort((x, y) => y.score - x.score)) {
    if (score <= 0.5 || usedB.has(i) || usedH.has(j)) continue;
    out.push([i, j]);
    usedB.add(i);
    usedH.add(j);
  }
  return out;
}

/** `ref:#/components/schemas/Alert` reads `Alert` in messages. */
function branchName(key: string): string {
  return key.replace(/^ref:.*\//, "").replace(/^(title|index):/, "");
}

type Composition = "oneOf" | "anyOf";

/**
 * oneOf and anyOf, branch by branch. A list that moved from one keyword to the other is compared
 * as one list, and the move reported by what it does: oneOf → anyOf lets a value match several
 * branches (a request accepts more; a response may now match two), anyOf → oneOf the reverse.
 */
function compareCompositions(c: Collector, b: Json, h: Json, at: At, dir: Direction, seen: Set<unknown>) {
  const has = (s: Json, k: Composition) => Array.isArray(s[k]);
  for (const [from, to] of [
    ["oneOf", "anyOf"],
    ["anyOf", "oneOf"],
  ] as const) {
    if (has(b, from) && !has(b, to) && has(h, to) && !has(h, from)) {
      const rule: RuleId =
        dir === "response"
          ? from === "oneOf"
            ? "response-schema-oneof-to-anyof"
            : "response-schema-anyof-to-oneof"
          : from === "oneOf"
            ? "request-schema-oneof-to-anyof"
            : "request-schema-anyof-to-oneof";
      c.add(rule, { ...at, base: [...at.base, from], head: [...at.head, to] }, `${name(at)}${from} → ${to}`);
      compareBranches(c, b, h, at, dir, { base: from, head: to }, seen);
      return;
    }
  }
  for (const key of ["oneOf", "anyOf"] as const)
    compareBranches(c, b, h, at, dir, { base: key, head: key }, seen);
}

/** Pairs oneOf/anyOf branches by the $ref they were written with, then by title, then by position. */
function compareBranches(
  c: Collector,
  b: Json,
  h: Json,
  at: At,
  dir: Direction,
  keys: { base: Composition; head: Composition },
  seen: Set<unknown>,
): void {
  const key = keys.base;
  const bb = Array.isArray(b[keys.base]) ? (b[keys.base] as unknown[]) : [];
  const hh = Array.isArray(h[keys.head]) ? (h[keys.head] as unknown[]) : [];
  if (bb.length === 0 && hh.length === 0) return;
  const keyOf = (raw: unknown, tokens: string[], s: unknown, i: number): string => {
    const written = writtenNode(raw, tokens);
    if (isObject(written) && typeof written.$ref === "string") return `ref:${written.$ref}`;
    if (isObject(s) && typeof s.title === "string") return `title:${s.title}`;
    return `index:${i}`;
  };
  const bKeys = bb.map((s, i) => keyOf(c.baseRaw, [...at.base, key, String(i)], s, i));
  const hKeys = hh.map((s, i) => keyOf(c.headRaw, [...at.head, keys.head, String(i)], s, i));
  const pairs: [number, number][] = [];
  const freeB = new Set(bb.keys());
  const freeH = new Set(hh.keys());
  for (const i of freeB) {
    const j = hKeys.findIndex((k, jj) => freeH.has(jj) && k === bKeys[i]);
    if (j >= 0) {
      pairs.push([i, j]);
      freeB.delete(i);
      freeH.delete(j);
    }
  }
  // Leftovers (a branch inlined, or moved behind another name) pair with the most alike branch
  // of the other side, by the property names they share, when both sides have as many left.
  if (freeB.size === freeH.size && freeB.size > 1) {
    for (const [i, j] of pairByLikeness([...freeB], [...freeH], bb, hh)) {
      pairs.push([i, j]);
      freeB.delete(i);
      freeH.delete(j);
    }
  }
  // Unnamed leftovers pair by position when both sides have the same number left.
  if (freeB.size === freeH.size) {
    const fb = [...freeB];
    const fh = [...freeH];
    for (const [n, i] of fb.entries()) pairs.push([i, fh[n] as number]);
    freeB.clear();
    freeH.clear();
  }
  for (const [i, j] of pairs) {
    const where: At = {
      ...at,
      base: [...at.base, key, String(i)],
      head: [...at.head, keys.head, String(j)],
      field: `${at.field ?? ""}<${branchName(bKeys[i] as string)}>`,
    };
    walk(c, bb[i], hh[j], where, dir, seen);
  }
  for (const i of freeB) {
    const where = down(at, key, String(i));
    const rule = dir === "response" ? "response-schema-branch-removed" : "request-schema-branch-removed";
    c.add(rule, where, `${name(at)}${key} branch ${branchName(bKeys[i] as string)} removed`, "base");
  }
  for (const j of freeH) {
    const where: At = { ...at, base: [...at.base, key], head: [...at.head, keys.head, String(j)] };
    const rule = dir === "response" ? "response-schema-branch-added" : "request-schema-branch-added";
    c.add(rule, where, `${name(at)}${keys.head} branch ${branchName(hKeys[j] as string)} added`);
  }
}
