import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
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

/** Writes the document as the frozen release of its info.version; refuses to overwrite one. */
export async function freezeRelease(raw: RawDocument, dir: string = RELEASES_DIR): Promise<string> {
  const version = String((raw.info as { version?: unknown })?.version);
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`info.version must be semver, got ${version}`);
  const path = join(dir, `${version}.yaml`);
  const existing = await readFile(path, "utf8").catch(() => undefined);
  if (existing !== undefined)
    throw new Error(`release ${version} is already frozen at ${path}; bump info.version`);
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
