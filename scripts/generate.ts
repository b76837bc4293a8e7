// Regenerates every checked-in generated file from openapi/openapi.yaml.
import { writeFile } from "node:fs/promises";
import { FIXTURES_PATH, generateFixtures, renderFixtures } from "../mocks/fixtures/generate.ts";
import { writeChangelogs } from "../src/diff/changelog.ts";
import { GENERATED_TYPES_PATH, generateTypes } from "../src/spec/generate-types.ts";
import { loadSpec } from "../src/spec/load.ts";

await writeFile(GENERATED_TYPES_PATH, await generateTypes());
console.log(`wrote ${GENERATED_TYPES_PATH.pathname}`);

// The changelog of every frozen release, as the diff reads it today (openapi/releases/<v>.md).
for (const path of await writeChangelogs()) console.log(`wrote ${path}`);

// The mock's fixture set, drawn from the spec's categories and time zone (mocks/fixtures/).
await writeFile(FIXTURES_PATH, renderFixtures(generateFixtures(await loadSpec())));
console.log(`wrote ${FIXTURES_PATH.pathname}`);
