/** Test support: single edits applied programmatically to the real openapi/openapi.yaml, so the tables track the spec. */
import { readFileSync } from "node:fs";
import { parseDocument } from "../spec/load.ts";
import { SPEC_PATH } from "../spec/paths.ts";
import { diffDocuments } from "./diff.ts";
import type { DiffOptions, DiffResult } from "./types.ts";

// biome-ignore lint/suspicious/noExplicitAny: edits reach anywhere into a YAML document.
export type Doc = any;

const current = parseDocument(readFileSync(SPEC_PATH, "utf8"));

/** A fresh, editable copy of the current spec as written. */
export function spec(): Doc {
  return structuredClone(current);
}

export const TODAY = "2026-11-25";

/** Diffs the current spec (base) against a copy with one edit (head). */
export function diffEdit(edit: (doc: Doc) => void, options: DiffOptions = {}): Promise<DiffResult> {
  const head = spec();
  edit(head);
  return diffDocuments(
    { label: "base", raw: current },
    { label: "head", raw: head },
    { today: TODAY, ...options },
  );
}

/** The distinct rule ids of a result, sorted: what the tables compare. */
export function rulesOf(r: DiffResult): string[] {
  return [...new Set(r.findings.map((f) => f.rule))].sort();
}

export const schema = (d: Doc, name: string) => d.components.schemas[name];
export const param = (d: Doc, name: string) => d.components.parameters[name];
export const get = (d: Doc, path: string) => d.paths[path].get;
export const rule = (d: Doc, path: string, id: string) =>
  get(d, path)["x-conformance"].find((r: Doc) => r.id === id);
export const relation = (d: Doc, path: string, id: string) =>
  get(d, path)["x-relations"].find((r: Doc) => r.id === id);
export const without = (list: string[], x: string) => list.filter((y) => y !== x);
