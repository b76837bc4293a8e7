import { writeChangelogs } from "../../src/diff/changelog.ts";
import { loadSpec } from "../../src/spec/load.ts";
import { freezeRelease } from "../../src/spec/release.ts";
import { parseOptions } from "../args.ts";

export const usage = `usage: dealkit release [--spec PATH]

Writes the current document, as written, to openapi/releases/<info.version>.yaml, and its
changelog against the release before it (openapi/releases/<info.version>.md, what dealkit diff
--format markdown prints). A frozen release is never overwritten: the same document again is
nothing to do, a different one under a frozen version is refused (exit 1): bump info.version
first. See "Releasing a spec change" in openapi/README.md.`;

export async function run(args: string[]): Promise<number> {
  const { values } = parseOptions(args, { spec: { type: "string" } });
  const spec = await loadSpec(values.spec);
  try {
    const path = await freezeRelease(spec.raw);
    if (path === undefined) {
      console.log(`release ${spec.version} is already frozen, identical to this document: nothing to do`);
      return 0;
    }
    console.log(`froze ${spec.version} at ${path}`);
    for (const changelog of await writeChangelogs()) console.log(`wrote ${changelog}`);
    return 0;
  } catch (err) {
    console.error(`dealkit release: ${(err as Error).message}`);
    return 1;
  }
}
