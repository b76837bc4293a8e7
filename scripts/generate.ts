// Regenerates every checked-in generated file from openapi/openapi.yaml.
import { writeFile } from "node:fs/promises";
import { GENERATED_TYPES_PATH, generateTypes } from "../src/spec/generate-types.ts";

await writeFile(GENERATED_TYPES_PATH, await generateTypes());
console.log(`wrote ${GENERATED_TYPES_PATH.pathname}`);
