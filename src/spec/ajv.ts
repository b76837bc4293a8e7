import { Ajv2020 } from "ajv/dist/2020.js";
import formatsModule from "ajv-formats";

// ajv-formats is CommonJS: under NodeNext its callable is the default export's default.
const addFormats = (formatsModule as unknown as { default: (ajv: Ajv2020) => Ajv2020 }).default;

/** Keywords OpenAPI 3.1 allows in a Schema Object that JSON Schema 2020-12 does not know. */
const OPENAPI_SCHEMA_KEYWORDS = ["example", "discriminator", "xml", "externalDocs"];

/** One ajv 2020-12 instance configured for OpenAPI 3.1 schemas (strict, all errors). */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addVocabulary(OPENAPI_SCHEMA_KEYWORDS);
  return ajv;
}
