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

/**
 * x-client-rules: what the contract asks of clients, judged by the kit's client judge. Nothing on
 * the wire changes with them, but a client's verdict does: a rule added or tightened (a tolerance
 * lowered, more statuses or query names judged) makes a client that conformed fail the judge
 * (warning); a rule removed or loosened only lets more clients pass (info).
 */
export function compareClientRules(c: Collector, b: Json, h: Json): void {
  const at: At = { base: ["x-client-rules"], head: ["x-client-rules"] };
  if (!("x-client-rules" in b) && !("x-client-rules" in h)) return;
  const xb = obj(b["x-client-rules"]);
  const xh = obj(h["x-client-rules"]);
  // Stated for the first time: no client was judged against the base, so no verdict changes.
  if (!("x-client-rules" in b)) {
    c.add(
      "client-rules-stated",
      at,
      `x-client-rules stated: ${rules(xh).length} rules clients are judged by`,
    );
    return;
  }
  const rb = rules(xb);
  const rh = rules(xh);
  rb.forEach((r, i) => {
    const j = rh.findIndex((x) => x.id === r.id);
    const where: At = {
      ...at,
      base: [...at.base, "rules", String(i)],
      head: [...at.head, "rules", String(j)],
    };
    if (j < 0) c.add("client-rule-removed", where, `client rule ${String(r.id)} removed`, "base");
    else compareRule(c, r, rh[j] as Json, where);
  });
  rh.forEach((r, j) => {
    if (!rb.some((x) => x.id === r.id))
      c.add(
        "client-rule-added",
        down(at, "rules", String(j)),
        `client rule ${String(r.id)} added: ${show(r.summary)}`,
      );
  });
  if ("reason" in xb && xb.reason !== xh.reason)
    c.add("documentation-changed", down(at, "reason"), "x-client-rules reason changed");
  compareRest(c, xb, xh, { ...at, field: "x-client-rules" }, new Set(["rules", "reason"]));
}

const rules = (x: Json): Json[] => (Array.isArray(x.rules) ? x.rules.filter(isObject) : []);

function compareRule(c: Collector, rb: Json, rh: Json, at: At): void {
  const label = `client rule ${String(rb.id)}`;
  const pb = obj(rb.parameters);
  const ph = obj(rh.parameters);
  for (const name of new Set([...Object.keys(pb), ...Object.keys(ph)])) {
    if (same(pb[name], ph[name])) continue;
    const where = down(at, "parameters", name);
    const what = `${label} ${name} ${show(pb[name])} → ${show(ph[name])}`;
    const side = name in ph ? "head" : "base";
    for (const move of moves(name, pb[name], ph[name])) c.add(RULE_OF[move], where, what, side);
  }
  if (rb.reason !== rh.reason) c.add("documentation-changed", down(at, "reason"), `${label} reason changed`);
  compareRest(c, rb, rh, { ...at, field: label }, new Set(["id", "parameters", "reason"]));
}

type Move = "tightened" | "loosened" | "changed";

const RULE_OF = {
  tightened: "client-rule-tightened",
  loosened: "client-rule-loosened",
  changed: "client-rule-changed",
} as const;

/**
 * The judge's own numbers are tolerances: the higher, the more a client may do (a later request
 * after Retry-After, more 429s in a window). Anything else of a rule is read by its shape.
 */
const HIGHER_IS_LOOSER = new Set(["tolerance_seconds", "max_refusals"]);

/**
 * Which way a parameter moved for a client: a tolerance lowered, a status range or a list of
 * names grown (more requests judged) is tightened; the opposite loosened. A pointer into another
 * extension (`{ spec: POINTER }`), a header or parameter name, a parameter added or dropped:
 * changed (the judge now reads something else; which way it moves is the pointed value's, and
 * that extension's own diff says).
 */
function moves(name: string, b: unknown, h: unknown): Move[] {
  if (typeof b === "number" && typeof h === "number" && HIGHER_IS_LOOSER.has(name))
    return [h < b ? "tightened" : "loosened"];
  if (isRange(b) && isRange(h)) {
    const wider = h.from <= b.from && h.to >= b.to;
    const narrower = h.from >= b.from && h.to <= b.to;
    return [wider ? "tightened" : narrower ? "loosened" : "changed"];
  }
  if (isStrings(b) && isStrings(h)) {
    const lower = (l: string[]) => l.map((s) => s.toLowerCase());
    const gained = lower(h).some((s) => !lower(b).includes(s));
    const lost = lower(b).some((s) => !lower(h).includes(s));
    const out: Move[] = [];
    if (gained) out.push("tightened");
    if (lost) out.push("loosened");
    return out;
  }
  return ["changed"];
}

function isRange(v: unknown): v is { from: number; to: number } {
  return isObject(v) && typeof v.from === "number" && typeof v.to === "number";
}

function isStrings(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((s) => typeof s === "string");
}
