import { readFile } from "node:fs/promises";
import SwaggerParser from "@apidevtools/swagger-parser";
import { parse as parseYaml } from "yaml";
import { SPEC_PATH } from "./paths.ts";
import { Spec } from "./spec.ts";

/** The parsed but unresolved document, as written (what the diff and the release freezer read). */
export type RawDocument = Record<string, unknown>;

const cache = new Map<string, Promise<Spec>>();

/** Parses YAML or JSON text into a raw document. */
export function parseDocument(text: string): RawDocument {
  const doc = parseYaml(text, { maxAliasCount: -1 }) as unknown;
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    throw new Error("an OpenAPI document must be a YAML or JSON object");
  }
  return doc as RawDocument;
}

/** Builds a Spec from a raw document: resolves every $ref once and indexes the operations. */
export async function specFromDocument(raw: RawDocument, source = "<memory>"): Promise<Spec> {
  const dereferenced = (await SwaggerParser.dereference(structuredClone(raw) as never)) as unknown;
  return new Spec(source, raw, dereferenced as RawDocument);
}

/**
 * Loads, dereferences and indexes a spec file, once per path per process: every consumer
 * (server, suite, mock, diff) reads the spec through here, never by parsing the YAML again.
 */
export function loadSpec(path: string = SPEC_PATH): Promise<Spec> {
  let pending = cache.get(path);
  if (!pending) {
    pending = readFile(path, "utf8").then((text) => specFromDocument(parseDocument(text), path));
    cache.set(path, pending);
    pending.catch(() => cache.delete(path));
  }
  return pending;
}
