/**
 * Test support for the edit corpus (corpus-cases.ts): each case is a small JSON Patch (RFC 6902)
 * applied to the current openapi/openapi.yaml in memory, with the class a reviewer expects. The
 * corpus measures what the acceptance of issue 23 counts: recall on breaking edits and the share
 * of non-breaking edits reported as breaking.
 */
import { tokens } from "../rules/pointer.ts";
import { diffDocuments } from "./diff.ts";
import { type Doc, spec, TODAY } from "./testing.ts";
import type { DiffResult } from "./types.ts";

export type PatchOp =
  | { op: "add" | "replace"; path: string; value: unknown }
  | { op: "remove"; path: string }
  | { op: "move" | "copy"; from: string; path: string };

/** What a change does to v1's clients: the highest level among its findings, `none` without any. */
export type Verdict = "breaking" | "warning" | "info" | "none";

export interface CorpusCase {
  name: string;
  patch: PatchOp[];
  want: Verdict;
  /** One line: why a reviewer classifies it so. */
  why: string;
}

/** The parent container and last token of a pointer; throws when the parent does not exist. */
function parentOf(doc: Doc, pointer: string): [Doc, string] {
  const ts = tokens(pointer);
  const last = ts.pop();
  if (last === undefined) throw new Error("cannot patch the document root");
  let node = doc;
  for (const t of ts) {
    if (node === null || typeof node !== "object" || !(t in node)) throw new Error(`no ${pointer}`);
    node = node[t];
  }
  return [node, last];
}

function read(doc: Doc, pointer: string): unknown {
  const [parent, last] = parentOf(doc, pointer);
  if (!(last in parent)) throw new Error(`no ${pointer}`);
  return parent[last];
}

function remove(doc: Doc, pointer: string): unknown {
  const [parent, last] = parentOf(doc, pointer);
  if (!(last in parent)) throw new Error(`no ${pointer}`);
  const value = parent[last];
  if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete parent[last];
  return value;
}

function add(doc: Doc, pointer: string, value: unknown): void {
  const [parent, last] = parentOf(doc, pointer);
  if (Array.isArray(parent)) {
    if (last === "-") parent.push(value);
    else parent.splice(Number(last), 0, value);
  } else parent[last] = value;
}

/** Applies a JSON Patch in place. A pointer that misses is an error: a case must edit what it says. */
export function applyPatch(doc: Doc, patch: PatchOp[]): void {
  for (const p of patch) {
    const value = "value" in p ? structuredClone(p.value) : undefined;
    if (p.op === "add") add(doc, p.path, value);
    else if (p.op === "remove") remove(doc, p.path);
    else if (p.op === "replace") {
      read(doc, p.path);
      const [parent, last] = parentOf(doc, p.path);
      parent[last] = value;
    } else if (p.op === "move") add(doc, p.path, remove(doc, p.from));
    else if (p.op === "copy") add(doc, p.path, structuredClone(read(doc, p.from)));
  }
}

export function verdictOf(r: DiffResult): Verdict {
  if (r.summary.breaking > 0) return "breaking";
  if (r.summary.warning > 0) return "warning";
  if (r.summary.info > 0) return "info";
  return "none";
}

/** Diffs the current spec against a patched copy. */
export async function diffPatched(patch: PatchOp[]): Promise<DiffResult> {
  const base = spec();
  const head = spec();
  applyPatch(head, patch);
  return diffDocuments({ label: "base", raw: base }, { label: "head", raw: head }, { today: TODAY });
}

export interface Score {
  /** Breaking edits reported breaking, over all breaking edits. */
  recall: number;
  /** Non-breaking edits reported breaking, over all non-breaking edits. */
  falseBreaking: number;
  missed: string[];
  falselyBreaking: string[];
}

export function score(results: { c: CorpusCase; got: Verdict }[]): Score {
  const breaking = results.filter((r) => r.c.want === "breaking");
  const other = results.filter((r) => r.c.want !== "breaking");
  const missed = breaking.filter((r) => r.got !== "breaking").map((r) => r.c.name);
  const falselyBreaking = other.filter((r) => r.got === "breaking").map((r) => r.c.name);
  return {
    recall: (breaking.length - missed.length) / breaking.length,
    falseBreaking: falselyBreaking.length / other.length,
    missed,
    falselyBreaking,
  };
}
