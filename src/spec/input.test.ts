import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ParseError, parseJsonText, parseYamlText } from "../errors/parse-text.ts";
import { readSpecDocument, SpecInputError, specDocumentProblem } from "./input.ts";
import { loadSpec } from "./load.ts";
import { SPEC_PATH } from "./paths.ts";

const dir = mkdtempSync(join(tmpdir(), "dealkit-spec-input-"));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const INFO = "info: { title: t, version: 1.0.0 }\n";
const OPERATION = "paths:\n  /a:\n    get:\n      responses:\n        '200': { description: ok }\n";

describe("specDocumentProblem: what a spec must be before it is read as one", () => {
  it.each([
    ["a mapping without openapi (hello: world)", { given: { hello: "world" }, want: /no "openapi" field/ }],
    ["an empty object", { given: {}, want: /no "openapi" field/ }],
    ["a list", { given: [1], want: /a YAML or JSON object is expected/ }],
    [
      "a Swagger 2.0 file",
      { given: { swagger: "2.0", paths: { "/a": {} } }, want: /a Swagger 2\.0 document/ },
    ],
    ["openapi 3.0.3", { given: { openapi: "3.0.3", paths: { "/a": {} } }, want: /openapi is "3\.0\.3"/ }],
    ["openapi as a number", { given: { openapi: 3.1, paths: { "/a": {} } }, want: /openapi is 3\.1;/ }],
    ["openapi 3.1.0 without paths", { given: { openapi: "3.1.0" }, want: /no "paths"/ }],
    ["openapi 3.1.0 with empty paths", { given: { openapi: "3.1.0", paths: {} }, want: /"paths" is empty/ }],
    [
      "a $ref that does not resolve",
      {
        given: { openapi: "3.1.0", paths: { "/a": { get: { responses: { "200": { $ref: "#/nope" } } } } } },
        want: /\$ref #\/nope at #\/paths\/~1a\/get\/responses\/200 does not resolve/,
      },
    ],
  ])("%s is refused", (_, { given, want }) => {
    expect(specDocumentProblem(given)).toMatch(want);
  });

  it.each([
    ["the kit's own spec", { given: SPEC_PATH }],
    ["a minimal 3.1.1 document", { given: file("minimal.yaml", `openapi: 3.1.1\n${INFO}${OPERATION}`) }],
    [
      "a $ref to a $anchor (not a pointer: left to the resolver)",
      {
        given: file(
          "anchor.yaml",
          `openapi: 3.1.0\n${INFO}${OPERATION}components:\n  schemas:\n    A: { $anchor: a, type: string }\n    B: { $ref: "#a" }\n`,
        ),
      },
    ],
  ])("%s is a spec", async (_, { given }) => {
    await expect(readSpecDocument(given, "--spec")).resolves.toHaveProperty("paths");
  });
});

describe("readSpecDocument and loadSpec: a refusal names the side, the file and the reason", () => {
  it.each([
    ["hello: world", { given: "hello: world\n", want: 'not an OpenAPI document: it has no "openapi" field' }],
    ["{}", { given: "{}\n", want: 'not an OpenAPI document: it has no "openapi" field' }],
    [
      "openapi: 3.1.0 without paths",
      { given: `openapi: 3.1.0\n${INFO}`, want: 'it has no "paths": an API document without operations' },
    ],
    [
      "a broken $ref",
      {
        given: `openapi: 3.1.0\n${INFO}paths:\n  /a: { $ref: "#/components/pathItems/Nope" }\n`,
        want: "$ref #/components/pathItems/Nope at #/paths/~1a does not resolve",
      },
    ],
  ])("%s", async (name, { given, want }) => {
    const path = file(`${name.replace(/\W+/g, "-")}.yaml`, given);
    for (const read of [() => readSpecDocument(path, "--spec"), () => loadSpec(path)]) {
      const err = await read().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SpecInputError);
      expect((err as Error).message).toBe(`--spec ${path}: ${want}`);
    }
  });

  it("a missing file", async () => {
    const path = join(dir, "missing.yaml");
    await expect(loadSpec(path, "base")).rejects.toThrow(`base ${path}: cannot be read (no such file)`);
  });

  it.each([
    [
      "YAML",
      {
        given: `openapi: 3.1.0\ninfo:\n  title: t\n  version: 1.0.0\n  bad: [1, 2\n${OPERATION}`,
        want: { line: 6, column: 1, snippet: /^\s*bad: \[1, 2\npaths:\n\^$/ },
      },
    ],
    [
      "JSON",
      {
        given: '{\n  "openapi": "3.1.0",\n  "paths": {,}\n}\n',
        want: { line: 3, column: 13, snippet: /^ {2}"paths": \{,\}\n {12}\^$/ },
      },
    ],
  ])(
    "a %s syntax error: file:line:column, and the line with a caret under the column",
    async (kind, { given, want }) => {
      const path = file(`syntax.${kind.toLowerCase()}`, given);
      const err = (await readSpecDocument(path, "head").catch((e: unknown) => e)) as SpecInputError;
      expect(err).toBeInstanceOf(SpecInputError);
      expect(err.message.split("\n")[0]).toMatch(
        new RegExp(`^head ${path}:${want.line}:${want.column}: \\S`),
      );
      expect(err.message.split("\n\n")[1]).toMatch(want.snippet);
    },
  );
});

describe("ParseError", () => {
  it.each([
    [
      "YAML",
      { given: () => parseYamlText("a: 1\na: 2\n", "dup.yaml"), want: { at: { line: 2, column: 1 } } },
    ],
    [
      "JSON",
      { given: () => parseJsonText('{\n  "a": 1,\n}', "x.json"), want: { at: { line: 3, column: 1 } } },
    ],
    [
      "JSON without a position (never its copy of the text)",
      {
        given: () => parseJsonText('{\n  "a": ,\n}', "x.json"),
        want: { message: "x.json: not JSON: Unexpected token ','" },
      },
    ],
  ])("%s: keeps the line and column the parser gives", (_, { given, want }) => {
    expect(given).toThrow(ParseError);
    try {
      given();
    } catch (err) {
      expect(err).toMatchObject(want);
    }
  });
});
