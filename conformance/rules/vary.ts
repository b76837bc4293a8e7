/**
 * The second request of a relation, made from the first by the relation's `vary`: another word of
 * the target's data added to a word list, a value set, added to or raised to the maximum, the
 * narrowest rank window containing the first's, a parameter left out, or (filled in once the first
 * answer is in) a field of one of its items.
 */
import type { Relation, Variation } from "../../src/rules/types.ts";
import { windowRange } from "../../src/rules/windows.ts";
import { splitWords } from "../../src/rules/words.ts";
import { type ParsedRequest, parseRequest } from "../../src/spec/request.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { Operation } from "../../src/spec/types.ts";
import type { Vocabulary } from "../arbitraries/vocabulary.ts";
import type { RequestCase } from "../types.ts";

export interface Varied {
  request: RequestCase;
  /** Parameters to fill from an item of the first answer: param → item field. */
  fromItem: Record<string, string>;
}

/** Words of the target's data for a word list: activity words where the operation's records have names. */
function wordsFor(op: Operation, vocab: Vocabulary): string[] {
  const filters = op.relations.flatMap((r) => [r.expect.superset, r.expect.subset]);
  const fields = [
    ...op.rules.flatMap((r) => r.then.each?.matches?.fields ?? []),
    ...filters.flatMap((f) => (f && f !== true ? (f.matches?.fields ?? []) : [])),
  ];
  return fields.includes("name") ? vocab.activityWords : vocab.words;
}

/** The narrowest rank window that contains `act`'s window now (and is not `act`). */
function widerWindow(spec: Spec, act: string, now: number): string | undefined {
  const span = (a: string) => windowRange(spec.rankWindows, a, now);
  const own = span(act);
  return Object.keys(spec.rankWindows.windows)
    .filter((a) => a !== act && span(a).from <= own.from && span(a).to >= own.to)
    .sort((x, y) => span(y).from - span(x).from)[0];
}

function varied(
  spec: Spec,
  op: Operation,
  name: string,
  v: Variation,
  parsed: ParsedRequest,
  vocab: Vocabulary,
): string | undefined | null {
  const param = op.parameters.find((p) => p.name === name);
  const raw = parsed.raw[name];
  const effective = parsed.values[name];
  if ("addWord" in v) {
    const syntax = param?.words;
    if (!syntax) return null;
    const have = raw ? splitWords(raw, syntax) : [];
    // A word no word list of the request holds already (a block word equal to q would block everything).
    const taken = op.parameters.flatMap((p) =>
      p.words && parsed.raw[p.name] ? splitWords(parsed.raw[p.name] ?? "", p.words) : [],
    );
    const word = wordsFor(op, vocab).find((w) => !taken.includes(w));
    if (!word) return null;
    // First: an implementation that searches only the first word shows it.
    const sep = syntax.separators.find((s) => s.trim() !== "") ?? "|";
    return have.length ? `${word}${sep}${raw}` : word;
  }
  if ("set" in v) return String(v.set);
  if ("add" in v) return typeof effective === "number" ? String(effective + v.add) : null;
  if ("max" in v) return param?.schema.maximum !== undefined ? String(param.schema.maximum) : null;
  if ("widerWindow" in v)
    return typeof effective === "string" ? (widerWindow(spec, effective, Date.now() / 1000) ?? null) : null;
  if ("remove" in v) return undefined;
  return `{${v.fromItem}}`;
}

/** The second request, or undefined when the variation cannot apply (no other word, already the maximum). */
export function varyRequest(
  spec: Spec,
  op: Operation,
  relation: Relation,
  base: RequestCase,
  vocab: Vocabulary,
): Varied | undefined {
  const parsed = parseRequest(spec, op, new URLSearchParams(base.query));
  let query = [...base.query];
  const fromItem: Record<string, string> = {};
  for (const [name, v] of Object.entries(relation.vary)) {
    const value = varied(spec, op, name, v, parsed, vocab);
    if (value === null) return undefined;
    query = query.filter(([k]) => k !== name);
    if (value !== undefined) query.push([name, value]);
    if ("fromItem" in v) fromItem[name] = v.fromItem;
  }
  const same = JSON.stringify([...query].sort()) === JSON.stringify([...base.query].sort());
  // Values taken from the first answer are only known then: the rest must already be valid.
  const check = new URLSearchParams(query.filter(([k]) => !fromItem[k]));
  if (same || parseRequest(spec, op, check).errors.length > 0) return undefined;
  return { request: { ...base, query, label: `relation:${relation.id} second` }, fromItem };
}
