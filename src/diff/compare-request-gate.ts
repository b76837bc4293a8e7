import { type At, type Collector, compareRest, down, type Json, obj, same, show } from "./context.ts";
import { pairMediaTypes } from "./media-types.ts";

/**
 * x-request-gate: how requests HTTP cannot read are answered. The cap is a floor of service as
 * much as a ceiling (every head under it must be served, past a proxy's common 8 KB too), so a
 * lower cap or a lower level that must be served refuses clients with long cookies or tokens; a
 * refusal's status, problem type and form are what clients (browsers first) read.
 */
export function compareRequestGate(c: Collector, b: Json, h: Json): void {
  const at: At = { base: ["x-request-gate"], head: ["x-request-gate"] };
  const gb = obj(b["x-request-gate"]);
  const gh = obj(h["x-request-gate"]);
  const inB = "x-request-gate" in b;
  const inH = "x-request-gate" in h;
  if (!inB && !inH) return;
  if (!inH) {
    c.add(
      "request-gate-removed",
      at,
      "x-request-gate removed: no head size must be served any more, refusals may take any form",
      "base",
    );
    return;
  }
  if (!inB) {
    const said = proseSaid(b, gh);
    if (said)
      c.add("transport-policy-added", at, `x-request-gate stated (the description already said it: ${said})`);
    else c.add("request-gate-added", at, "x-request-gate stated where the description did not say it");
    return;
  }
  compareHeadCap(c, gb, gh, at);
  compareRefusals(c, obj(gb.refusals), obj(gh.refusals), down(at, "refusals"));
  if ("encoded_slash" in gb || "encoded_slash" in gh)
    compareAnswer(
      c,
      obj(gb.encoded_slash),
      obj(gh.encoded_slash),
      down(at, "encoded_slash"),
      "%2F in a segment",
    );
  compareAnswered(c, obj(gb.answered), obj(gh.answered), down(at, "answered"));
  if (gb.reason !== gh.reason)
    c.add("documentation-changed", down(at, "reason"), "x-request-gate reason changed");
  compareRest(
    c,
    gb,
    gh,
    { ...at, field: "x-request-gate" },
    new Set([
      "head_max_bytes",
      "head_measured",
      "slack_bytes",
      "served_beyond_bytes",
      "refusals",
      "encoded_slash",
      "answered",
      "reason",
    ]),
  );
}

const num = (v: unknown) => (typeof v === "number" ? v : undefined);

/**
 * The largest head the document promises to serve: `slack_bytes` under the cap, and at least
 * `slack_bytes` past a proxy's common default (`served_beyond_bytes`), the sizes the suite sends.
 */
function servedUpTo(g: Json): number | undefined {
  const cap = num(g.head_max_bytes);
  if (cap === undefined) return undefined;
  const slack = num(g.slack_bytes) ?? 0;
  const common = num(g.served_beyond_bytes);
  return Math.max(cap - slack, common === undefined ? 0 : common + slack);
}

function compareHeadCap(c: Collector, gb: Json, gh: Json, at: At): void {
  const [cb, ch] = [num(gb.head_max_bytes), num(gh.head_max_bytes)];
  const [sb, sh] = [servedUpTo(gb), servedUpTo(gh)];
  const what = `head cap ${show(cb)} → ${show(ch)} bytes, served up to ${show(sb)} → ${show(sh)}`;
  const moved = ["head_max_bytes", "slack_bytes", "served_beyond_bytes"].find((k) => !same(gb[k], gh[k]));
  const where = down(at, moved ?? "head_max_bytes");
  if (cb !== undefined && (ch === undefined || ch < cb || (sb !== undefined && sh !== undefined && sh < sb)))
    c.add("request-head-cap-lowered", where, what);
  else if (cb !== ch || sb !== sh) c.add("request-head-cap-raised", where, what);
  else {
    for (const key of ["slack_bytes", "served_beyond_bytes"]) {
      if (!same(gb[key], gh[key]))
        c.add(
          "documentation-changed",
          down(at, key),
          `${key} ${show(gb[key])} → ${show(gh[key])} (every head up to ${show(sh)} bytes is still served)`,
        );
    }
  }
  // Measured as sent is the strictest count (every byte, line ends included): any other admits more.
  if (!same(gb.head_measured, gh.head_measured)) {
    const rule =
      gb.head_measured === "as-sent"
        ? "request-head-cap-raised"
        : gh.head_measured === "as-sent"
          ? "request-head-cap-lowered"
          : "request-gate-changed";
    c.add(
      rule,
      down(at, "head_measured"),
      `head_measured ${show(gb.head_measured)} → ${show(gh.head_measured)}`,
    );
  }
}

/**
 * Refusals by kind: a kind no longer listed leaves its answer unpromised (warning, as an error
 * status removed); a new kind refuses requests that were served (breaking, as a new refusing rule).
 */
function compareRefusals(c: Collector, rb: Json, rh: Json, at: At): void {
  for (const kind of Object.keys(rb)) {
    if (!(kind in rh))
      c.add("request-gate-refusal-removed", down(at, kind), `refusal ${kind} no longer listed`, "base");
    else compareAnswer(c, obj(rb[kind]), obj(rh[kind]), down(at, kind), `refusal ${kind}`);
  }
  for (const kind of Object.keys(rh)) {
    if (!(kind in rb)) {
      const a = obj(rh[kind]);
      c.add(
        "request-gate-refusal-added",
        down(at, kind),
        `refusal ${kind} added: ${show(a.status)} ${show(a.problem)}`,
      );
    }
  }
}

/** The status and problem type clients read: another one is a response changed under them. */
function compareAnswer(c: Collector, ab: Json, ah: Json, at: At, label: string): void {
  for (const key of ["status", "problem"]) {
    if (!same(ab[key], ah[key]))
      c.add(
        "request-gate-answer-changed",
        down(at, key),
        `${label} ${key} ${show(ab[key])} → ${show(ah[key])}`,
      );
  }
  compareRest(c, ab, ah, { ...at, field: label }, new Set(["status", "problem"]));
}

/**
 * The form of every refusal: another media type is read by no problem+json parser; CORS dropped
 * hides even the status from browsers (the CORS rules); counted moves the rate limit; the
 * connection kept open or closed changes what follows on it, which no client reads (a warning).
 */
function compareAnswered(c: Collector, ab: Json, ah: Json, at: At): void {
  if (!same(ab.media_type, ah.media_type)) {
    const paired = pairMediaTypes([String(ab.media_type)], [String(ah.media_type)]);
    const rule = paired.pairs.length === 1 ? "media-type-parameters-changed" : "request-gate-answer-changed";
    c.add(
      rule,
      down(at, "media_type"),
      `refusals answered as ${show(ab.media_type)} → ${show(ah.media_type)}`,
    );
  }
  if (ab.cors !== ah.cors) {
    const rule = ah.cors === true ? "cors-widened" : "cors-narrowed";
    c.add(
      rule,
      down(at, "cors"),
      `CORS headers on refusals before routing ${show(ab.cors)} → ${show(ah.cors)}`,
    );
  }
  if (ab.counted !== ah.counted) {
    const rule = ah.counted === true ? "rate-limit-tightened" : "rate-limit-loosened";
    c.add(
      rule,
      down(at, "counted"),
      `refusals before routing counted ${show(ab.counted)} → ${show(ah.counted)}`,
    );
  }
  if (!same(ab.connection, ah.connection))
    c.add(
      "request-gate-changed",
      down(at, "connection"),
      `connection after a refusal ${show(ab.connection)} → ${show(ah.connection)}`,
    );
  compareRest(
    c,
    ab,
    ah,
    { ...at, field: "answered" },
    new Set(["media_type", "cors", "counted", "connection"]),
  );
}

/**
 * Whether the base document's prose already said what a newly stated gate says: the cap (in KB
 * or bytes), each refusal's problem type and status, problem+json; the encoded slash's answer is
 * a problem type the base lists with that status (a path the document lacks). Returns what it
 * said, or undefined.
 */
function proseSaid(b: Json, gate: Json): string | undefined {
  const text = String(obj(b.info).description ?? "");
  const cap = num(gate.head_max_bytes);
  if (cap === undefined) return undefined;
  if (!text.includes(`${cap / 1024} KB`) && !text.includes(String(cap))) return undefined;
  const refusals = Object.values(obj(gate.refusals)).map(obj);
  const named = (a: Json) => text.includes(String(a.problem)) && text.includes(String(a.status));
  if (!refusals.every(named)) return undefined;
  const media = String(obj(gate.answered).media_type ?? "");
  if (media && !text.includes(media.replace(/^application\//, ""))) return undefined;
  if ("encoded_slash" in gate) {
    const slash = obj(gate.encoded_slash);
    const listed = obj(obj(b["x-problem-types"])[String(slash.problem)]);
    if (listed.status !== slash.status) return undefined;
  }
  return `the ${cap / 1024} KB cap, each refusal's problem type and status`;
}
