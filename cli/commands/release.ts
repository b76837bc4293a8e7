import { loadSpec } from "../../src/spec/load.ts";
import { freezeRelease } from "../../src/spec/release.ts";
import { parseOptions } from "../args.ts";

export const usage = `usage: dealkit release [--spec PATH]

Writes the current document, as written, to openapi/releases/<info.version>.yaml. Refuses to
overwrite a frozen release (exit 1): bump info.version first. See "Releasing a spec change" in
openapi/README.md.`;

export async function run(args: string[]): Promise<number> {
  const { values } = parseOptions(args, { spec: { type: "string" } });
  const spec = await loadSpec(values.spec);
  try {
    console.log(`froze ${spec.version} at ${await freezeRelease(spec.raw)}`);
    return 0;
  } catch (err) {
    console.error(`dealkit release: ${(err as Error).message}`);
    return 1;
  }
}
