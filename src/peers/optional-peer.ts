import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The mock (Prism) and the docs page (Redocly) need large tools most users of the kit never
 * run, so the package names them as optional peer dependencies instead of installing them for
 * everyone. A command that needs one and does not find it says how to add it, in one line.
 */
export class MissingPeerError extends Error {}

const require = createRequire(import.meta.url);

/** The version range the kit was tested with, from its own package.json (checkout or dist/). */
function peerRange(name: string): string | undefined {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, "utf8")) as {
      name?: string;
      peerDependencies?: Record<string, string>;
    };
    if (manifest.name === "dealkit") return manifest.peerDependencies?.[name];
  }
  return undefined;
}

/** require.resolve of a file of an optional peer, or a MissingPeerError naming the install command. */
export function resolvePeer(name: string, file: string, purpose: string): string {
  try {
    return require.resolve(`${name}/${file}`);
  } catch {
    const range = peerRange(name);
    throw new MissingPeerError(
      `${purpose} needs ${name}, an optional peer dependency of dealkit: npm install ${name}${range ? `@${range}` : ""}`,
    );
  }
}
