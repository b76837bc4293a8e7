/**
 * Relations that carry a rank window from one operation to another (the legacy file of an act
 * and the API's rank of the same act) can only show a wrong window where the windows' ranks
 * differ: on a window whose rank is its neighbour's, a file serving the neighbour passes. So the
 * act is chosen from discovery's alerts (the window whose foreseen rank differs from its
 * neighbours'), and the group carries a control, the second request at the neighbouring window:
 * when its answer is the second answer, the case could not have shown a violation.
 */

import type { Relation } from "../../src/rules/types.ts";
import { windowRange } from "../../src/rules/windows.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { Operation } from "../../src/spec/types.ts";
import type { TimelineEntry } from "../arbitraries/vocabulary.ts";
import { widerWindow } from "../rules/vary.ts";
import type { RequestCase } from "../types.ts";

/** The label that marks a group's control request (judge() finds it by it). */
export const CONTROL = "control";

/**
 * The parameters of the first operation that name a rank window and go unchanged to the second
 * operation (a relation crossing operations with `to`, not varying them).
 */
export function carriedWindows(spec: Spec, op: Operation, relation: Relation): string[] {
  if (!relation.to) return [];
  const target = spec.operation(relation.to.operation);
  const windows = Object.keys(spec.rankWindows.windows);
  return op.parameters
    .filter((p) => p.schema.enum?.every((v) => windows.includes(String(v))) === true)
    .filter((p) => !(p.name in relation.vary) && target.parameters.some((t) => t.name === p.name))
    .map((p) => p.name);
}

/** The widest window inside `act`'s now (not `act`): the one an off-by-one below it would serve. */
function narrowerWindow(spec: Spec, act: string, now: number): string | undefined {
  const span = (a: string) => windowRange(spec.rankWindows, a, now);
  const own = span(act);
  return Object.keys(spec.rankWindows.windows)
    .filter((a) => a !== act && span(a).from >= own.from && span(a).to <= own.to)
    .sort((x, y) => span(x).from - span(y).from)[0];
}

/** The neighbour a control asks for: the next wider window, else (the widest) the next narrower. */
export function controlWindow(spec: Spec, act: string, now: number): string | undefined {
  return widerWindow(spec, act, now) ?? narrowerWindow(spec, act, now);
}

/** The ids of a window's first `size` entries foreseen from the alerts seen, in the relation's order. */
export function foreseenRank(
  spec: Spec,
  relation: Relation,
  timeline: TimelineEntry[],
  act: string,
  now: number,
  size: number,
): string[] {
  const { from, to } = windowRange(spec.rankWindows, act, now);
  const order = relation.order ?? spec.rankWindows.order;
  const rank = (e: TimelineEntry, field: string) => Number((e as unknown as Record<string, unknown>)[field]);
  return timeline
    .filter((e) => e.shijianchuo >= from && e.shijianchuo <= to)
    .sort((x, y) => {
      for (const { field, direction } of order) {
        const d = rank(x, field) - rank(y, field);
        if (d !== 0) return direction === "desc" ? -d : d;
      }
      return 0;
    })
    .slice(0, size > 0 ? size : undefined)
    .map((e) => JSON.stringify(e.id));
}

/**
 * The windows worth asking, best first: those whose foreseen rank differs from both neighbours',
 * then from the control's, the fullest first; windows foreseen empty or equal to their control's
 * last (the control then tells). Without alerts seen: every window, as the spec lists them.
 */
export function discriminatingWindows(
  spec: Spec,
  relation: Relation,
  timeline: TimelineEntry[],
  now: number,
  size: number,
): string[] {
  const rank = (act: string | undefined) =>
    act ? foreseenRank(spec, relation, timeline, act, now, size).join() : undefined;
  // 2: differs from both neighbours; 1: from the control's; 0: foreseen empty or as the control's.
  const score = (act: string) => {
    const own = rank(act);
    const differs = (other: string | undefined) => other === undefined || other !== own;
    if (!own || !differs(rank(controlWindow(spec, act, now)))) return 0;
    const both = differs(rank(widerWindow(spec, act, now))) && differs(rank(narrowerWindow(spec, act, now)));
    return (both ? 2 : 1) * 1000 + own.split(",").length;
  };
  const acts = Object.keys(spec.rankWindows.windows);
  return [...acts].sort((x, y) => score(y) - score(x) || acts.indexOf(x) - acts.indexOf(y));
}

/** `request` to `op` with parameter `name` set to `value`, in its path or its query. */
export function withParameter(
  spec: Spec,
  op: Operation,
  request: RequestCase,
  name: string,
  value: string,
): RequestCase {
  const param = op.parameters.find((p) => p.name === name);
  if (param?.in !== "path") {
    const given = request.query.some(([k]) => k === name);
    const query = given
      ? request.query.map(([k, v]) => [k, k === name ? value : v] as [string, string])
      : [...request.query, [name, value] as [string, string]];
    return { ...request, query };
  }
  const given = { ...(spec.match(request.pathname)?.pathParams ?? {}), [name]: value };
  const pathname = op.path.replace(/\{([^}]+)\}/g, (_, p: string) => encodeURIComponent(given[p] ?? ""));
  return { ...request, pathname };
}
