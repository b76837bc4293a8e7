// Every example of the spec validates against the schema of the response it illustrates
// (Prism serves these examples to client developers, so a wrong one teaches a wrong shape).
import { describe, expect, it } from "vitest";
import { loadSpec } from "./load.ts";

const spec = await loadSpec();
const cases = spec.operations.flatMap((op) =>
  Object.values(op.responses).flatMap((response) =>
    Object.entries(response.content).flatMap(([mediaType, media]) =>
      Object.entries(media.examples ?? {}).map(([name, example]) => ({
        label: `${op.operationId} ${response.status} ${mediaType} ${name}`,
        schema: media.schema,
        value: example.value,
      })),
    ),
  ),
);

describe("examples", () => {
  it("every operation and documented response body has at least one example", () => {
    for (const op of spec.operations) {
      for (const response of Object.values(op.responses)) {
        for (const [mediaType, media] of Object.entries(response.content)) {
          expect(
            Object.keys(media.examples ?? {}),
            `${op.operationId} ${response.status} ${mediaType}`,
          ).not.toEqual([]);
        }
      }
    }
  });

  it.each(cases)("$label validates", ({ schema, value }) => {
    const validate = spec.schemaValidator(schema);
    expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
  });
});
