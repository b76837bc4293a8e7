// Guards the checked-in generated types: they must equal a fresh generation from the spec.
import { readFile } from "node:fs/promises";
import { expect, it } from "vitest";
import { GENERATED_TYPES_PATH, generateTypes } from "./generate-types.ts";

it("src/generated/api-types.ts is up to date with openapi/openapi.yaml (run npm run generate)", async () => {
  const checkedIn = await readFile(GENERATED_TYPES_PATH, "utf8");
  expect(checkedIn === (await generateTypes())).toBe(true);
});
