/**
 * What a spec file must be before anything reads it as one: parsed (YAML or JSON), an OpenAPI
 * 3.1.x document with operations, every local $ref pointing somewhere. Every command that takes
 * a spec (the diff's two sides, --spec of conformance, proxy, judge, mock, docs, watch, release)
 * reads it through here, so a wrong path or a file that is something else is refused with its
 * side and reason (exit 2) instead of being judged as an API with no operations, or as a v2.
 */
import { readFile } from "node:fs/promises";
import { InputError } from "../errors/input-error.ts";
import { ParseError, parseYamlText } from "../errors/parse-text.ts";
import { has, join } from "../rules/pointer.ts";
import type { RawDocument } from "./load.ts";

/** A spec input refused: `side` names the argument ("base", "head", "--spec"), `detail` starts with the file. */
export class SpecInputError extends InputError {
  constructor(
    readonly side: string,
    readonly detail: string,
  ) {
    super(`${side} ${detail}`);
  }
}

/** The spec version this kit reads: OpenAPI 3.1.x (JSON Schema 2020-12). */
const OPENAPI_31 = /^3\.1\.\d+$/;

/** Why a parsed document is not a spec this kit reads, or undefined when it is one. */
export function specDocumentProblem(doc: unknown): string | undefined {
  if (doc === null || typeof doc !== "object" || Array.isArray(doc))
    return "not an OpenAPI document: a YAML or JSON object is expected";
  const d = doc as RawDocument;
  if (d.openapi === undefined)
    return d.swagger !== undefined
      ? `a Swagger ${String(d.swagger)} document; this kit reads OpenAPI 3.1.x`
      : 'not an OpenAPI document: it has no "openapi" field';
  if (typeof d.openapi !== "string" || !OPENAPI_31.test(d.openapi))
    return `openapi is ${JSON.stringify(d.openapi)}; this kit reads OpenAPI 3.1.x (e.g. "3.1.0")`;
  if (d.paths === null || typeof d.paths !== "object" || Array.isArray(d.paths))
    return 'it has no "paths": an API document without operations';
  if (Object.keys(d.paths).length === 0) return '"paths" is empty: an API document without operations';
  return brokenRef(d);
}

/** The first local $ref that points nowhere, said with where it is written. */
function brokenRef(root: RawDocument): string | undefined {
  const visit = (node: unknown, at: string): string | undefined => {
    if (node === null || typeof node !== "object") return undefined;
    const ref = (node as { $ref?: unknown }).$ref;
    // A pointer fragment (#/...); a plain-name fragment (#Alert) names a $anchor, resolved elsewhere.
    const pointer = typeof ref === "string" && /^#(\/|$)/.test(ref) ? safeDecode(ref.slice(1)) : undefined;
    if (pointer !== undefined && !has(root, pointer)) return `$ref ${ref} at #${at} does not resolve`;
    for (const [k, v] of Object.entries(node)) {
      const found = visit(v, join(at, k));
      if (found) return found;
    }
    return undefined;
  };
  return visit(root, "");
}

function safeDecode(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/** The text of a spec file, or a SpecInputError naming the side (a missing path, a directory). */
export async function readSpecText(path: string, side: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why =
      e.code === "ENOENT" ? "no such file" : e.code === "EISDIR" ? "a directory, not a file" : e.message;
    throw new SpecInputError(side, `${path}: cannot be read (${why})`);
  }
}

/** Parses and checks a spec's text; a syntax error keeps its line, column and snippet. */
export function specDocumentOf(text: string, side: string, file: string): RawDocument {
  let doc: unknown;
  try {
    doc = parseYamlText(text, file);
  } catch (err) {
    if (err instanceof ParseError) throw new SpecInputError(side, err.message);
    throw err;
  }
  const problem = specDocumentProblem(doc);
  if (problem) throw new SpecInputError(side, `${file}: ${problem}`);
  return doc as RawDocument;
}

/** A spec file read, parsed and checked: what every command's spec argument goes through. */
export async function readSpecDocument(path: string, side: string): Promise<RawDocument> {
  return specDocumentOf(await readSpecText(path, side), side, path);
}
