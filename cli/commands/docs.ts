import { relative } from "node:path";
import { buildDocs, DOCS_PATH } from "../../src/docs/build.ts";
import { parseOptions } from "../args.ts";

export const usage = `usage: dealkit docs [--out docs/index.html] [--spec PATH]

Builds the browsable API reference from the spec with Redocly build-docs --inlineBundle: one
HTML file with the Redoc scripts embedded, readable offline. Telemetry is off.`;

export async function run(args: string[]): Promise<number> {
  const { values } = parseOptions(args, { out: { type: "string" }, spec: { type: "string" } });
  const started = Date.now();
  const out = await buildDocs({ out: values.out ?? DOCS_PATH, specPath: values.spec });
  console.log(
    `wrote ${relative(process.cwd(), out) || out} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return 0;
}
