import { fileURLToPath } from "node:url";

/** Where the kit's own files live, resolved from this module so the CLI works from any cwd. */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const SPEC_PATH = fileURLToPath(new URL("../../openapi/openapi.yaml", import.meta.url));
export const RELEASES_DIR = fileURLToPath(new URL("../../openapi/releases/", import.meta.url));
export const VOCABULARY_SCHEMA_PATH = fileURLToPath(
  new URL("../../openapi/x-conformance.schema.json", import.meta.url),
);
