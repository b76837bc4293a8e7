import { compareClientRules } from "./compare-client-rules.ts";
import { compareRequestGate } from "./compare-request-gate.ts";
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
import type { Mode } from "./types.ts";

/**
 * The document-level x-rules: the promises JSON Schema cannot state. Each field is judged by
 * which way it moves for a client: fewer requests, fewer browser permissions, fewer priced
 * kinds, fewer windows or categories are breaking; the opposite is info.
 */
export function compareExtensions(c: Collector, b: Json, h: Json, mode: Mode): void {
  compareRateLimit(c, obj(b["x-rate-limit"]), obj(h["x-rate-limit"]), root("x-rate-limit"));
  compareCors(c, obj(b["x-cors"]), obj(h["x-cors"]), root("x-cors"));
  compareTransport(c, b, h);
  compareMethods(c, obj(b["x-methods"]), obj(h["x-methods"]), root("x-methods"));
  compareRequestGate(c, b, h);
  compareClientRules(c, b, h);
  compareCategories(c, obj(b["x-categories"]), obj(h["x-categories"]), root("x-categories"));
  compareRankWindows(c, obj(b["x-rank-windows"]), obj(h["x-rank-windows"]), root("x-rank-windows"));
  compareProblemTypes(c, obj(b["x-problem-types"]), obj(h["x-problem-types"]), root("x-problem-types"));
  // A new major states its own versioning (current v2, prefix /api/v2): only v1 → v1.x is a promise kept or broken.
  if (mode === "same-major")
    compareVersioning(c, obj(b["x-versioning"]), obj(h["x-versioning"]), root("x-versioning"));
}

export const EXTENSION_KEYS = [
  "x-rate-limit",
  "x-cors",
  "x-methods",
  "x-request-gate",
  "x-client-rules",
  "x-query-string",
  "x-caching",
  "x-compression",
  "x-categories",
  "x-rank-windows",
  "x-problem-types",
  "x-versioning",
];

function root(key: string): At {
  return { base: [key], head: [key] };
}

const num = (v: unknown) => (typeof v === "number" ? v : undefined);
const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);

/**
 * limit lowered, or the rate limit/window lowered (a client pacing at the old average rate now
 * meets 429), or refused/preflight requests newly counted: tightened. Both up: loosened. The
 * headers list is the RateLimit-* headers clients read: losing one is breaking too.
 */
function compareRateLimit(c: Collector, b: Json, h: Json, at: At): void {
  const [lb, wb, lh, wh] = [num(b.limit), num(b.window_seconds), num(h.limit), num(h.window_seconds)];
  if (
    lb !== undefined &&
    wb !== undefined &&
    lh !== undefined &&
    wh !== undefined &&
    (lb !== lh || wb !== wh)
  ) {
    const what = `${lb} per ${wb} s → ${lh} per ${wh} s`;
    const where = down(at, lb !== lh ? "limit" : "window_seconds");
    if (lh < lb || lh / wh < lb / wb) c.add("rate-limit-tightened", where, `rate limit ${what}`);
    else c.add("rate-limit-loosened", where, `rate limit ${what}`);
  }
  for (const key of ["counts_refused", "counts_preflight"]) {
    if (b[key] === h[key]) continue;
    const rule = h[key] === true ? "rate-limit-tightened" : "rate-limit-loosened";
    c.add(rule, down(at, key), `${key} ${show(b[key])} → ${show(h[key])}`);
  }
  const lost = list(b.headers).filter((x) => !list(h.headers).includes(x));
  if (lost.length)
    c.add(
      "response-header-removed",
      down(at, "headers"),
      `rate-limit header ${lost.join(", ")} no longer sent`,
      "base",
    );
  // The 429 status and the Retry-After format are how clients detect the limit and wait it out.
  for (const key of ["status", "retry_after"]) {
    if (!same(b[key], h[key]))
      c.add("rate-limit-signal-changed", down(at, key), `${key} ${show(b[key])} → ${show(h[key])}`);
  }
  for (const key of ["algorithm", "scope", "applies_to"]) {
    if (!same(b[key], h[key]))
      c.add("rate-limit-changed", down(at, key), `${key} ${show(b[key])} → ${show(h[key])}`);
  }
  compareRest(
    c,
    b,
    h,
    at,
    new Set([
      "limit",
      "window_seconds",
      "counts_refused",
      "counts_preflight",
      "headers",
      "algorithm",
      "scope",
      "applies_to",
      "status",
      "retry_after",
      "client_ip",
      "counting",
      "shared_store_failure",
    ]),
  );
  // Prose for implementers: how the client address is read, what counts, when a shared store fails.
  for (const key of ["client_ip", "counting", "shared_store_failure"]) {
    if (b[key] !== h[key]) c.add("documentation-changed", down(at, key), `${key} description changed`);
  }
}

/** A list that lost entries narrows, one that gained entries widens. */
function compareList(c: Collector, b: unknown, h: unknown, at: At, label: string): void {
  const lb = list(b);
  const lh = list(h);
  const lost = lb.filter((x) => !lh.includes(x));
  const gained = lh.filter((x) => !lb.includes(x));
  if (lost.length) c.add("cors-narrowed", at, `${label} lost ${lost.join(", ")}`);
  if (gained.length) c.add("cors-widened", at, `${label} gained ${gained.join(", ")}`);
}

function compareCors(c: Collector, b: Json, h: Json, at: At): void {
  if (b.allow_origin !== h.allow_origin) {
    const rule =
      b.allow_origin === "*" ? "cors-narrowed" : h.allow_origin === "*" ? "cors-widened" : "cors-narrowed";
    c.add(rule, down(at, "allow_origin"), `allow_origin ${show(b.allow_origin)} → ${show(h.allow_origin)}`);
  }
  compareList(c, b.on, h.on, down(at, "on"), "CORS headers on");
  compareList(c, b.expose_headers, h.expose_headers, down(at, "expose_headers"), "expose_headers");
  const pb = obj(b.preflight);
  const ph = obj(h.preflight);
  const pre = down(at, "preflight");
  compareList(c, pb.allow_methods, ph.allow_methods, down(pre, "allow_methods"), "preflight allow_methods");
  compareList(c, pb.allow_headers, ph.allow_headers, down(pre, "allow_headers"), "preflight allow_headers");
  // Browsers accept a preflight answered with any ok status (Fetch: 200 to 299), so 204 → 200
  // fails nothing; a status outside 2xx fails every preflight.
  if (pb.status !== ph.status) {
    const ok = (s: unknown) => Number(s) >= 200 && Number(s) <= 299;
    const rule = ok(pb.status) && ok(ph.status) ? "cors-preflight-status-changed" : "cors-narrowed";
    c.add(rule, down(pre, "status"), `preflight status ${show(pb.status)} → ${show(ph.status)}`);
  }
  // A shorter Max-Age only makes browsers preflight more often: nothing fails.
  if (pb.max_age_seconds !== ph.max_age_seconds) {
    c.add(
      "documentation-changed",
      down(pre, "max_age_seconds"),
      `preflight max_age_seconds ${show(pb.max_age_seconds)} → ${show(ph.max_age_seconds)}`,
    );
  }
  compareRest(c, pb, ph, pre, new Set(["allow_methods", "allow_headers", "status", "max_age_seconds"]));
  compareRest(c, b, h, at, new Set(["allow_origin", "on", "expose_headers", "preflight"]));
}

/**
 * x-caching answers, by kind. The policy makes "a shared cache gave it from storage without
 * asking the API" a broken answer (RateLimit-* replayed, the limiter skipped), so a kind whose
 * Cache-Control sets newly let a shared cache reuse it is breaking; any other change to what
 * caches keep is a warning.
 */
function compareCaching(c: Collector, b: unknown, h: unknown): void {
  const byKind = (v: unknown) => new Map(entries(v).map((a) => [String(obj(a).kind), obj(a)]));
  const kb = byKind(b);
  const kh = byKind(h);
  const at = down(root("x-caching"), "answers");
  let loosened = false;
  for (const [kind, answer] of kh) {
    const before = kb.get(kind);
    if (before && !sharedReuse(before.cache_control) && sharedReuse(answer.cache_control)) {
      c.add(
        "caching-loosened",
        at,
        `${kind} answers may now be reused by a shared cache without asking the API`,
      );
      loosened = true;
    }
  }
  if (!loosened) c.add("caching-changed", at, "the Cache-Control of some answers changed");
}

/**
 * Whether one of the Cache-Control sets lets a shared cache answer from storage without asking
 * the API: none of no-store, no-cache, private, and no zero max-age or s-maxage (RFC 9111 §5.2.2;
 * without a lifetime a cache may still assign one heuristically, §4.2.2).
 */
function sharedReuse(sets: unknown): boolean {
  return entries(sets).some((set) => {
    const directives = entries(set).map((d) => String(d).toLowerCase().replace(/\s+/g, ""));
    if (directives.some((d) => ["no-store", "no-cache", "private"].includes(d))) return false;
    const shared = directives.find((d) => d.startsWith("s-maxage="));
    return shared ? shared !== "s-maxage=0" : !directives.includes("max-age=0");
  });
}

const entries = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * How answers travel: a lower query-string cap refuses requests that were served (breaking); a
 * changed caching policy changes what caches keep (warning); codings change nothing a client must
 * do (identity remains). A policy stated for the first time is info.
 */
function compareTransport(c: Collector, b: Json, h: Json): void {
  for (const key of ["x-query-string", "x-caching", "x-compression"]) {
    if (!(key in b) && key in h) c.add("transport-policy-added", root(key), `${key} stated`, "head");
  }
  const qb = obj(b["x-query-string"]);
  const qh = obj(h["x-query-string"]);
  const at = root("x-query-string");
  const [mb, mh] = [num(qb.max_length), num(qh.max_length)];
  if (mb !== undefined && mh !== undefined && mb !== mh)
    c.add(mh < mb ? "query-length-lowered" : "query-length-raised", down(at, "max_length"), `${mb} → ${mh}`);
  if (mb !== undefined && mh === undefined)
    c.add("query-length-raised", at, "no cap stated any more", "base");
  if ("reason" in qb && "reason" in qh && qb.reason !== qh.reason)
    c.add("documentation-changed", down(at, "reason"), "reason changed");
  // The cap measured on the text as sent is the strictest reading: any other (decoded) admits more.
  const both = "x-query-string" in b && "x-query-string" in h;
  if (both && "measured" in qb && !same(qb.measured, qh.measured)) {
    const rule = qb.measured === "as-sent" ? "query-length-raised" : "query-length-lowered";
    c.add(rule, down(at, "measured"), `measured ${show(qb.measured)} → ${show(qh.measured)}`);
  }
  // How the query is decoded decides what a request says: another decoding reads the same
  // request otherwise (a `+`, a `%zz`, bytes that are not UTF-8).
  if (both && "decoding" in qb && !same(qb.decoding, qh.decoding))
    c.add(
      "query-decoding-changed",
      down(at, "decoding"),
      `decoding ${show(qb.decoding)} → ${show(qh.decoding)}`,
    );
  if (both) compareRest(c, qb, qh, at, new Set(["max_length", "reason", "measured", "decoding"]));
  const cb = obj(b["x-caching"]);
  const ch = obj(h["x-caching"]);
  if ("answers" in cb && !same(cb.answers, ch.answers)) compareCaching(c, cb.answers, ch.answers);
  if ("policy" in cb && "policy" in ch && cb.policy !== ch.policy)
    c.add("documentation-changed", down(root("x-caching"), "policy"), "policy changed");
  if ("x-caching" in b && "x-caching" in h)
    compareRest(c, cb, ch, root("x-caching"), new Set(["answers", "policy"]));
  const zb = obj(b["x-compression"]);
  const zh = obj(h["x-compression"]);
  for (const key of ["codings", "vary"]) {
    if (key in zb && !same(zb[key], zh[key]))
      c.add(
        "compression-changed",
        down(root("x-compression"), key),
        `${key} ${show(zb[key])} → ${show(zh[key])}`,
      );
  }
  if ("policy" in zb && "policy" in zh && zb.policy !== zh.policy)
    c.add("documentation-changed", down(root("x-compression"), "policy"), "policy changed");
  if ("x-compression" in b && "x-compression" in h)
    compareRest(c, zb, zh, root("x-compression"), new Set(["codings", "vary", "policy"]));
}

/**
 * x-methods: which methods are answered and how. A method no longer allowed, HEAD answered
 * otherwise than as GET, OPTIONS with another status: monitors, browsers and scripts that relied
 * on it fail. OPTIONS newly counted spends the client's budget (rate-limit-tightened).
 */
function compareMethods(c: Collector, b: Json, h: Json, at: At): void {
  // Stated for the first time: it describes what was served already (1.0.0 → 1.1.0 did this).
  if (Object.keys(b).length === 0) {
    if (Object.keys(h).length > 0) c.add("transport-policy-added", at, "x-methods stated");
    return;
  }
  const lost = list(b.allow).filter((m) => !list(h.allow).includes(m));
  const gained = list(h.allow).filter((m) => !list(b.allow).includes(m));
  if (lost.length) c.add("methods-narrowed", down(at, "allow"), `${lost.join(", ")} no longer answered`);
  if (gained.length) c.add("methods-widened", down(at, "allow"), `${gained.join(", ")} now answered`);
  if ("head" in b && !same(b.head, h.head))
    c.add("methods-narrowed", down(at, "head"), `HEAD ${show(b.head)} → ${show(h.head)}`);
  const ob = obj(b.options);
  const oh = obj(h.options);
  for (const key of ["status", "unknown_path"]) {
    if (key in ob && !same(ob[key], oh[key]))
      c.add(
        "methods-narrowed",
        down(at, "options", key),
        `OPTIONS ${key} ${show(ob[key])} → ${show(oh[key])}`,
      );
  }
  if (ob.counted !== oh.counted) {
    const rule = oh.counted === true ? "rate-limit-tightened" : "rate-limit-loosened";
    c.add(rule, down(at, "options", "counted"), `OPTIONS counted ${show(ob.counted)} → ${show(oh.counted)}`);
  }
  compareRest(c, ob, oh, down(at, "options"), new Set(["status", "unknown_path", "counted"]));
  if ("policy" in b && "policy" in h && b.policy !== h.policy)
    c.add("documentation-changed", down(at, "policy"), "policy changed");
  compareRest(c, b, h, at, new Set(["allow", "head", "options", "policy"]));
}

function compareCategories(c: Collector, b: Json, h: Json, at: At): void {
  const items = (x: Json) => (Array.isArray(x.items) ? x.items.filter(isObject) : []);
  const ib = items(b);
  const ih = items(h);
  ib.forEach((cb, i) => {
    // Pair by id, then by alias: a changed alias or a changed id is one change, not two.
    const j = ih.findIndex((ch) => ch.id === cb.id);
    const k = j >= 0 ? j : ih.findIndex((ch) => ch.alias === cb.alias);
    const where: At = {
      ...at,
      base: [...at.base, "items", String(i)],
      head: [...at.head, "items", String(k)],
    };
    const ch = ih[k];
    const label = `category ${show(cb.id)} (${String(cb.alias)})`;
    if (!ch) {
      c.add("category-removed", where, `${label} removed`, "base");
      if (cb.priced === true)
        c.add("priced-kind-dropped", where, `${label} carried prices and is removed`, "base");
      return;
    }
    for (const key of ["id", "alias"]) {
      if (cb[key] !== ch[key])
        c.add("category-changed", down(where, key), `${label} ${key} ${show(cb[key])} → ${show(ch[key])}`);
    }
    if (cb.priced === true && ch.priced !== true)
      c.add("priced-kind-dropped", down(where, "priced"), `${label} no longer carries prices`);
    if (cb.priced !== true && ch.priced === true)
      c.add("priced-kind-added", down(where, "priced"), `${label} now carries prices`);
    compareRest(c, cb, ch, { ...where, field: label }, new Set(["id", "alias", "priced", "name", "kind"]));
    for (const key of ["name", "kind"]) {
      if (cb[key] !== ch[key])
        c.add(
          "documentation-changed",
          down(where, key),
          `${label} ${key} ${show(cb[key])} → ${show(ch[key])}`,
        );
    }
  });
  ih.forEach((ch, j) => {
    if (!ib.some((cb) => cb.id === ch.id || cb.alias === ch.alias)) {
      c.add(
        "category-added",
        { ...at, head: [...at.head, "items", String(j)] },
        `category ${show(ch.id)} (${String(ch.alias)}) added`,
      );
    }
  });
  const lost = list(b.priced_streams).filter((s) => !list(h.priced_streams).includes(s));
  const gained = list(h.priced_streams).filter((s) => !list(b.priced_streams).includes(s));
  if (lost.length)
    c.add(
      "priced-kind-dropped",
      down(at, "priced_streams"),
      `stream ${lost.join(", ")} no longer carries prices`,
    );
  if (gained.length)
    c.add("priced-kind-added", down(at, "priced_streams"), `stream ${gained.join(", ")} now carries prices`);
  if (b.all_alias !== h.all_alias)
    c.add("category-changed", down(at, "all_alias"), `all_alias ${show(b.all_alias)} → ${show(h.all_alias)}`);
  compareRest(c, b, h, at, new Set(["items", "priced_streams", "all_alias"]));
}

function compareRankWindows(c: Collector, b: Json, h: Json, at: At): void {
  const wb = obj(b.windows);
  const wh = obj(h.windows);
  for (const act of Object.keys(wb)) {
    const where = down(at, "windows", act);
    if (!(act in wh)) {
      c.add("rank-window-removed", where, `rank window ${act} removed`, "base");
      continue;
    }
    const { label: lb, ...spanB } = obj(wb[act]);
    const { label: lh, ...spanH } = obj(wh[act]);
    if (!same(spanB, spanH))
      c.add(
        "rank-window-changed",
        where,
        `rank window ${act} ${JSON.stringify(spanB)} → ${JSON.stringify(spanH)}`,
      );
    if (lb !== lh)
      c.add(
        "documentation-changed",
        down(where, "label"),
        `rank window ${act} label ${show(lb)} → ${show(lh)}`,
      );
  }
  for (const act of Object.keys(wh)) {
    if (!(act in wb)) c.add("rank-window-added", down(at, "windows", act), `rank window ${act} added`);
  }
  for (const key of ["order", "timezone"]) {
    if (!same(b[key], h[key]))
      c.add(
        "rank-window-changed",
        down(at, key),
        `rank ${key} ${JSON.stringify(b[key])} → ${JSON.stringify(h[key])}`,
      );
  }
  compareRest(c, b, h, at, new Set(["windows", "order", "timezone"]));
}

function compareProblemTypes(c: Collector, b: Json, h: Json, at: At): void {
  for (const code of Object.keys(b)) {
    const where = down(at, code);
    if (!(code in h)) {
      c.add("problem-type-removed", where, `problem type ${code} removed`, "base");
      continue;
    }
    const pb = obj(b[code]);
    const ph = obj(h[code]);
    if (pb.status !== ph.status)
      c.add(
        "problem-type-changed",
        down(where, "status"),
        `problem type ${code} status ${show(pb.status)} → ${show(ph.status)}`,
      );
    compareRest(
      c,
      pb,
      ph,
      { ...where, field: `problem type ${code}` },
      new Set(["status", "title", "detail"]),
    );
    if (pb.title !== ph.title || pb.detail !== ph.detail)
      c.add("documentation-changed", where, `problem type ${code} title or detail changed`);
  }
  for (const code of Object.keys(h)) {
    if (!(code in b)) c.add("problem-type-added", down(at, code), `problem type ${code} added`);
  }
}

/** The versioning promise itself: shortening it is breaking. Dates are checked in versioning.ts. */
function compareVersioning(c: Collector, b: Json, h: Json, at: At): void {
  const mb = num(b.min_support_months_after_successor);
  const mh = num(h.min_support_months_after_successor);
  if (mb !== undefined && (mh === undefined || mh < mb)) {
    c.add(
      "support-period-shortened",
      down(at, "min_support_months_after_successor"),
      `support after successor ${mb} → ${show(mh)} months`,
    );
  }
  if (b.additive_only === true && h.additive_only !== true)
    c.add("support-period-shortened", down(at, "additive_only"), "no longer additive-only");
  for (const key of ["path_prefix", "scheme", "current"]) {
    if (b[key] !== h[key])
      c.add("support-period-shortened", down(at, key), `${key} ${show(b[key])} → ${show(h[key])}`);
  }
  const lost = list(b.announce_headers).filter((x) => !list(h.announce_headers).includes(x));
  if (lost.length)
    c.add(
      "support-period-shortened",
      down(at, "announce_headers"),
      `announce_headers lost ${lost.join(", ")}`,
    );
  const dates = ["successor_published", "published", "sunset", "deprecated_since"];
  compareRest(
    c,
    b,
    h,
    at,
    new Set([
      "min_support_months_after_successor",
      "additive_only",
      "path_prefix",
      "scheme",
      "current",
      "announce_headers",
      ...dates,
      "successor_path_prefix",
      "releases_dir",
      "policy",
    ]),
  );
  for (const key of ["successor_path_prefix", "releases_dir", "policy", ...dates]) {
    if (!same(b[key], h[key]))
      c.add("documentation-changed", down(at, key), `x-versioning ${key} ${show(b[key])} → ${show(h[key])}`);
  }
}
