import { readFile } from "node:fs/promises";
import openapiTS, { astToString } from "openapi-typescript";
import { SPEC_PATH } from "./paths.ts";

export const GENERATED_TYPES_PATH = new URL("../generated/api-types.ts", import.meta.url);

const HEADER = `// GENERATED FILE: DO NOT EDIT.
// Made by openapi-typescript from openapi/openapi.yaml; regenerate with \`npm run generate\`.
// A drift test in npm test fails when this file differs from a fresh generation.
`;

/** The TypeScript types of the spec, exactly as checked in under src/generated/. */
export async function generateTypes(specPath: string = SPEC_PATH): Promise<string> {
  const text = await readFile(specPath, "utf8");
  const ast = await openapiTS(text, { alphabetize: false });
  return `${HEADER}\n${astToString(ast)}`;
}
