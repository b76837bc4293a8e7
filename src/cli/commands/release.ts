import { loadSpec } from "../../spec/load.ts";
import { freezeRelease } from "../../spec/release.ts";
import { parseOptions } from "../args.ts";

export const summary = "freeze the current spec as openapi/releases/<info.version>.yaml";
export const usage = `usage: dealkit release [--spec PATH]

Writes the current document, as written, to openapi/releases/<info.version>.yaml. Refuses to
overwrite a frozen release: bump info.version first. See "Releasing a spec change" in README.md.`;

export async function run(args: string[]): Promise<number> {
  const { values } = parseOptions(args, { spec: { type: "string" } });
  const spec = await loadSpec(values.spec);
  console.log(`froze ${spec.version} at ${await freezeRelease(spec.raw)}`);
  return 0;
}
