import SwaggerParser from "@apidevtools/swagger-parser";
import { parseYamlText } from "../errors/parse-text.ts";
import { readSpecDocument, SpecInputError } from "./input.ts";
import { SPEC_PATH } from "./paths.ts";
import { Spec } from "./spec.ts";

/** The parsed but unresolved document, as written (what the diff and the release freezer read). */
export type RawDocument = Record<string, unknown>;

const cache = new Map<string, Promise<Spec>>();

/** Parses YAML or JSON text into a raw document (a syntax error names `file`, line and column). */
export function parseDocument(text: string, file = "<memory>"): RawDocument {
  const doc = parseYamlText(text, file);
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    throw new Error("an OpenAPI document must be a YAML or JSON object");
  }
  return doc as RawDocument;
}

/** Builds a Spec from a raw document: resolves every $ref once and indexes the operations. */
export async function specFromDocument(raw: RawDocument, source = "<memory>"): Promise<Spec> {
  return new Spec(source, raw, await dereferenced(raw));
}

async function dereferenced(raw: RawDocument): Promise<RawDocument> {
  return (await SwaggerParser.dereference(structuredClone(raw) as never)) as unknown as RawDocument;
}

/**
 * Loads, checks (src/spec/input.ts), dereferences and indexes a spec file, once per path per
 * process: every consumer (server, suite, mock, diff) reads the spec through here, never by
 * parsing the YAML again. `side` names the argument the path came from in a refusal.
 */
export function loadSpec(path: string = SPEC_PATH, side = "--spec"): Promise<Spec> {
  let pending = cache.get(path);
  if (!pending) {
    pending = readSpecDocument(path, side).then(async (raw) => {
      const resolved = await dereferenced(raw).catch((err: Error) => {
        // Local refs were checked; an external one that does not resolve ends here.
        throw new SpecInputError(side, `${path}: cannot resolve $refs: ${err.message.split("\n")[0]}`);
      });
      return new Spec(path, raw, resolved);
    });
    cache.set(path, pending);
    pending.catch(() => cache.delete(path));
  }
  return pending;
}
