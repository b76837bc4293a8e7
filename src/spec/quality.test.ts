// The spec's quality gates: the three public validators report nothing, and the x- extensions
// follow their own JSON Schema. Run against the document as written (openapi/openapi.yaml).
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { createAjv } from "./ajv.ts";
import { loadSpec } from "./load.ts";
import { REPO_ROOT, SPEC_PATH, VOCABULARY_SCHEMA_PATH } from "./paths.ts";

const run = promisify(execFile);
const bin = (name: string) => `${REPO_ROOT}node_modules/.bin/${name}`;

describe("spec quality gates", () => {
  it("passes swagger-parser validation", async () => {
    await expect(SwaggerParser.validate(SPEC_PATH)).resolves.toBeTruthy();
  });

  it("has zero Spectral spectral:oas findings, warnings and hints included", async () => {
    const { stdout } = await run(bin("spectral"), ["lint", "-q", "-F", "hint", "-f", "json", SPEC_PATH], {
      cwd: REPO_ROOT,
    });
    expect(JSON.parse(stdout)).toEqual([]);
  });

  it("has zero Redocly recommended-strict findings", async () => {
    const result = await run(bin("redocly"), ["lint", SPEC_PATH, "--format", "json"], {
      cwd: REPO_ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    });
    const report = JSON.parse(result.stdout) as {
      totals: { errors: number; warnings: number };
      problems: unknown[];
    };
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("follows the x- vocabulary schema", async () => {
    const schema = JSON.parse(await readFile(VOCABULARY_SCHEMA_PATH, "utf8"));
    const validate = createAjv().compile(schema);
    const spec = await loadSpec();
    expect(validate(spec.raw), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it("the vocabulary schema rejects a malformed rule", async () => {
    const schema = JSON.parse(await readFile(VOCABULARY_SCHEMA_PATH, "utf8"));
    const validate = createAjv().compile(schema);
    const spec = await loadSpec();
    const broken = structuredClone(spec.raw) as {
      paths: Record<string, { get: { "x-conformance": { then: unknown }[] } }>;
    };
    const rankRules = broken.paths["/api/v1/rank"]?.get["x-conformance"] ?? [];
    (rankRules[0] as { then: unknown }).then = {
      status: 200,
      each: { absent: ["content"] },
    };
    expect(validate(broken)).toBe(false);
  });

  // Every rule and relation carries answers that satisfy and violate it (conformance/checks/spec-examples.test.ts judges them).
  const examplesOf = (d: unknown, list: "x-conformance" | "x-relations") =>
    ((d as { paths: Record<string, { get: Record<string, { examples?: Record<string, unknown[]> }[]> }> })
      .paths["/api/v1/search"]?.get[list]?.[0] ?? {}) as { examples?: Record<string, unknown[]> };
  it.each([
    ["a rule without examples", (d: unknown) => delete examplesOf(d, "x-conformance").examples],
    [
      "a rule without a violating example",
      (d: unknown) => {
        const examples = examplesOf(d, "x-conformance").examples ?? {};
        examples.violates = [];
      },
    ],
    ["a relation without examples", (d: unknown) => delete examplesOf(d, "x-relations").examples],
    [
      "a relation example without its second answer",
      (d: unknown) => {
        const pair = examplesOf(d, "x-relations").examples?.satisfies?.[0] as { second?: unknown };
        delete pair.second;
      },
    ],
    [
      "an example answer without a status",
      (d: unknown) => {
        const answer = examplesOf(d, "x-conformance").examples?.satisfies?.[0] as { status?: unknown };
        delete answer.status;
      },
    ],
  ])("the vocabulary schema rejects %s", async (_, breakIt) => {
    const schema = JSON.parse(await readFile(VOCABULARY_SCHEMA_PATH, "utf8"));
    const validate = createAjv().compile(schema);
    const broken = structuredClone((await loadSpec()).raw);
    breakIt(broken);
    expect(validate(broken)).toBe(false);
  });
});
