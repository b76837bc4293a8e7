import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { stringify } from "yaml";
import { parseDocument, type RawDocument } from "./load.ts";
import { RELEASES_DIR } from "./paths.ts";

export interface FrozenRelease {
  version: string;
  path: string;
  raw: RawDocument;
}

const HEADER = (version: string) =>
  `# FROZEN RELEASE ${version}: DO NOT EDIT.\n# The v1 document as released; every later v1 document must diff against it with no breaking change.\n`;

/** Every frozen release under openapi/releases/, oldest first. */
export async function frozenReleases(dir: string = RELEASES_DIR): Promise<FrozenRelease[]> {
  const files = (await readdir(dir)).filter((f) => /^\d+\.\d+\.\d+\.yaml$/.test(f));
  const releases = await Promise.all(
    files.map(async (f) => {
      const path = join(dir, f);
      return { version: f.replace(/\.yaml$/, ""), path, raw: parseDocument(await readFile(path, "utf8")) };
    }),
  );
  return releases.sort((a, b) => compareSemver(a.version, b.version));
}

/**
 * Where two documents differ, as JSON pointers (at most `limit`). One version names one
 * document: every difference counts, descriptions and examples included (a client reading the
 * 1.1.0 document must read what 1.1.0 released). Only YAML form is ignored: comments, quoting,
 * line breaks and key order, which the parsed documents do not hold.
 */
export function documentDifferences(a: unknown, b: unknown, limit = 5, at = ""): string[] {
  if (isDeepStrictEqual(a, b)) return [];
  const bothObjects = typeof a === "object" && a !== null && typeof b === "object" && b !== null;
  if (!bothObjects || Array.isArray(a) !== Array.isArray(b)) return [at || "/"];
  const out: string[] = [];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const sub = `${at}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    out.push(...documentDifferences((a as Json)[k], (b as Json)[k], limit - out.length, sub));
    if (out.length >= limit) break;
  }
  return out;
}

type Json = Record<string, unknown>;

/** The message when a document differs from the frozen release of its own version. */
export function sameVersionMessage(version: string, path: string, differences: string[]): string {
  return `info.version ${version} is frozen at ${path}, and this document differs from it at ${differences.join(", ")}: bump info.version (a patch for documentation, a minor for additions)`;
}

/**
 * Writes the document as the frozen release of its info.version. A release is never
 * overwritten: the same document again is nothing to do (returns undefined), a different one
 * under a frozen version is an error that says to bump info.version.
 */
export async function freezeRelease(
  raw: RawDocument,
  dir: string = RELEASES_DIR,
): Promise<string | undefined> {
  const version = String((raw.info as { version?: unknown })?.version);
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`info.version must be semver, got ${version}`);
  const path = join(dir, `${version}.yaml`);
  const existing = await readFile(path, "utf8").catch(() => undefined);
  if (existing !== undefined) {
    const differences = documentDifferences(parseDocument(existing), raw);
    if (differences.length === 0) return undefined;
    throw new Error(sameVersionMessage(version, path, differences));
  }
  await mkdir(dir, { recursive: true });
  await writeFile(path, HEADER(version) + stringify(raw, { lineWidth: 0 }));
  return path;
}

export function compareSemver(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}
