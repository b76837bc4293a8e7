// Regenerates every checked-in generated file from openapi/openapi.yaml.
import { writeFile } from "node:fs/promises";
import { writeChangelogs } from "../src/diff/changelog.ts";
import { GENERATED_TYPES_PATH, generateTypes } from "../src/spec/generate-types.ts";

await writeFile(GENERATED_TYPES_PATH, await generateTypes());
console.log(`wrote ${GENERATED_TYPES_PATH.pathname}`);

// The changelog of every frozen release, as the diff reads it today (openapi/releases/<v>.md).
for (const path of await writeChangelogs()) console.log(`wrote ${path}`);
