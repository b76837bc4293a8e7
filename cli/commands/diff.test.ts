import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { stringify } from "yaml";
import { param, schema, spec, without } from "../../src/diff/testing.ts";
import { SPEC_PATH } from "../../src/spec/paths.ts";
import { main } from "../main.ts";
import { run } from "./diff.ts";

const dir = mkdtempSync(join(tmpdir(), "dealkit-diff-"));
const write = (name: string, edit: (d: ReturnType<typeof spec>) => void) => {
  const d = spec();
  edit(d);
  const path = join(dir, name);
  writeFileSync(path, stringify(d));
  return path;
};
const narrowed = write("narrowed.yaml", (d) => {
  param(d, "RankLimit").schema.maximum = 200;
});
/** A documented 404 added to rank: a warning (a client may meet a status it did not handle). */
const statusAdded = write("status-added.yaml", (d) => {
  d.paths["/api/v1/rank"].get.responses["404"] = { description: "Nothing here." };
});
/** Alert.louzhuregtime removed: one breaking finding per operation that returns alerts. */
const fieldRemoved = write("field-removed.yaml", (d) => {
  delete schema(d, "Alert").properties.louzhuregtime;
  schema(d, "Alert").required = without(schema(d, "Alert").required ?? [], "louzhuregtime");
});
const acceptFile = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** Runs `dealkit diff` in-process; returns the exit code and what it printed. */
async function cli(...args: string[]) {
  return captured(() => run(args));
}

/** The same through the CLI entry, where a usage error is one line, the usage and exit 2. */
async function dealkit(...args: string[]) {
  return captured(() => main(["diff", ...args]));
}

async function captured(call: () => Promise<number>) {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, "log").mockImplementation((s: string) => out.push(s));
  vi.spyOn(console, "error").mockImplementation((s: string) => err.push(s));
  const code = await call();
  return { code, out: out.join("\n"), err: err.join("\n") };
}

afterEach(() => vi.restoreAllMocks());

describe("dealkit diff", () => {
  it.each([
    ["breaking change, default fail-on", [SPEC_PATH, narrowed], 1],
    ["breaking change, --fail-on never", [SPEC_PATH, narrowed, "--fail-on", "never"], 0],
    ["warning, default fail-on", [SPEC_PATH, statusAdded], 0],
    ["warning, --fail-on warning", [SPEC_PATH, statusAdded, "--fail-on", "warning"], 1],
    ["no change, from git", ["git:HEAD:openapi/openapi.yaml", "git:HEAD:openapi/openapi.yaml"], 0],
    ["unreadable input", [SPEC_PATH, join(dir, "missing.yaml")], 2],
    ["unknown revision", ["git:no-such-rev:openapi/openapi.yaml", SPEC_PATH], 2],
  ])("%s → exit %i", async (_, args, want) => {
    expect((await cli(...(args as string[]))).code).toBe(want);
  });

  // A gate fed a wrong path, a file that is something else or a broken $ref once passed (read as
  // an empty document, or as a v2): each is refused on either side, naming it and the reason.
  const INFO = "info: { title: t, version: 1.2.0 }\n";
  it.each([
    ["hello: world", { given: "hello: world\n", want: 'not an OpenAPI document: it has no "openapi" field' }],
    ["{}", { given: "{}\n", want: 'not an OpenAPI document: it has no "openapi" field' }],
    [
      "openapi: 3.1.0 without paths",
      { given: `openapi: 3.1.0\n${INFO}`, want: 'it has no "paths": an API document without operations' },
    ],
    [
      "empty paths",
      {
        given: `openapi: 3.1.0\n${INFO}paths: {}\n`,
        want: '"paths" is empty: an API document without operations',
      },
    ],
    [
      "openapi 3.0.3",
      {
        given: `openapi: 3.0.3\n${INFO}paths: { /a: {} }\n`,
        want: 'openapi is "3.0.3"; this kit reads OpenAPI 3.1.x (e.g. "3.1.0")',
      },
    ],
    [
      "a broken $ref",
      {
        given: (() => {
          const d = spec();
          d.paths["/api/v1/rank"].get.parameters[0] = { $ref: "#/components/parameters/Nope" };
          return stringify(d);
        })(),
        want: "$ref #/components/parameters/Nope at #/paths/~1api~1v1~1rank/get/parameters/0 does not resolve",
      },
    ],
    ["a missing file", { given: undefined, want: "cannot be read (no such file)" }],
  ])(
    "%s is refused on either side: exit 2, the side, the file, the reason",
    async (name, { given, want }) => {
      const path = join(dir, `not-a-spec-${name.replace(/\W+/g, "-")}.yaml`);
      if (given !== undefined) writeFileSync(path, given);
      for (const [side, args] of [
        ["base", [path, SPEC_PATH]],
        ["head", [SPEC_PATH, path]],
      ] as const) {
        const { code, out, err } = await dealkit(...args, "--fail-on", "breaking", "--format", "markdown");
        expect(code, err).toBe(2);
        expect(out).toBe("");
        expect(err).toBe(`dealkit diff: ${side} ${path}: ${want}`);
      }
    },
  );

  it.each([
    [
      "YAML",
      {
        given: `openapi: 3.1.0\ninfo:\n  title: t\n  version: [1.0.0\npaths: {}\n`,
        want: {
          at: "5:1",
          reason: "Flow sequence in block collection",
          snippet: "  version: [1.0.0\npaths: {}\n^",
        },
      },
    ],
    [
      "JSON",
      {
        given: '{\n  "openapi": "3.1.0",\n  "paths": {,}\n}\n',
        want: { at: "3:13", reason: "Unexpected , in flow map", snippet: '  "paths": {,}\n            ^' },
      },
    ],
  ])(
    "a %s syntax error names side, file:line:column and shows the line with a caret",
    async (kind, { given, want }) => {
      const path = join(dir, `syntax.${kind.toLowerCase()}`);
      writeFileSync(path, given);
      for (const [side, args] of [
        ["base", [path, SPEC_PATH]],
        ["head", [SPEC_PATH, path]],
      ] as const) {
        const { code, err } = await dealkit(...args);
        expect(code).toBe(2);
        const [first, snippet] = err.split("\n\n");
        expect(first).toMatch(new RegExp(`^dealkit diff: ${side} ${path}:${want.at}: ${want.reason}`));
        expect(snippet).toBe(want.snippet);
      }
    },
  );

  it("prints the chosen format", async () => {
    const { out } = await cli(SPEC_PATH, narrowed, "--format", "github");
    expect(out).toMatch(
      new RegExp(
        `^::error file=${narrowed.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")},line=\\d+,title=request-bound-narrowed::`,
      ),
    );
  });

  it("rejects a bad option as a usage error", async () => {
    await expect(run([SPEC_PATH, narrowed, "--format", "xml"])).rejects.toThrow(/--format must be one of/);
    await expect(run([SPEC_PATH])).rejects.toThrow(/exactly two inputs/);
  });
});

describe("dealkit diff --accept", () => {
  const today = ["--today", "2026-11-25"];
  const narrowedUntil = (expires: string) =>
    acceptFile(
      `narrowed-${expires}.yaml`,
      `- rule: request-bound-narrowed\n  reason: no client asks above 200, OPS-9\n  expires: ${expires}\n`,
    );

  it("an accepted breaking change exits 0, still shown", async () => {
    const { code, out } = await cli(SPEC_PATH, narrowed, "--accept", narrowedUntil("2026-11-25"), ...today);
    expect(code).toBe(0);
    expect(out).toMatch(
      /^BREAKING request-bound-narrowed .* \[accepted until 2026-11-25: no client asks above 200, OPS-9\]$/m,
    );
  });

  it("an entry past its date (judged on --today) exits 1 and says so", async () => {
    const { code, out } = await cli(SPEC_PATH, narrowed, "--accept", narrowedUntil("2026-11-24"), ...today);
    expect(code).toBe(1);
    expect(out).toContain(
      "accepted change expired, it fails the gate: rule request-bound-narrowed (until 2026-11-24",
    );
  });

  it("an expired entry fails even a diff without changes; an unused one is noted", async () => {
    const list = acceptFile(
      "mixed.yaml",
      "- { rule: path-removed, reason: r, expires: 2026-01-01 }\n- { rule: operation-removed, reason: r, expires: 2026-12-31 }\n",
    );
    const { code, out } = await cli(SPEC_PATH, SPEC_PATH, "--accept", list, ...today);
    expect(code).toBe(1);
    expect(out).toContain("the entry can go: rule operation-removed");
  });

  it("a location narrows the entry: the other operations' findings still fail", async () => {
    const at = (location: string) =>
      acceptFile(
        `at-${location.replace(/\W+/g, "-")}.yaml`,
        `- rule: response-field-removed\n  location: "${location}"\n  reason: PRIV-7\n  expires: 2026-12-31\n`,
      );
    const feed = await cli(SPEC_PATH, fieldRemoved, "--accept", at("GET /api/v1/feed"), ...today);
    expect(feed.code).toBe(1);
    expect(feed.out.match(/\[accepted until/g)).toHaveLength(1);
    expect(
      (await cli(SPEC_PATH, fieldRemoved, "--accept", at("#/components/schemas/Alert"), ...today)).code,
    ).toBe(0);
  });

  it.each([
    [
      "an unknown rule",
      "- { rule: request-bound-narowed, reason: r, expires: 2026-12-31 }",
      "entry 1: no diff rule named request-bound-narowed (the ids: src/diff/README.md)",
    ],
    ["not a list", "rule: path-removed", "expected a list of entries"],
    [
      "no expiry",
      "- { rule: path-removed, reason: r }",
      "entry 1 needs expires: YYYY-MM-DD (the last day it holds)",
    ],
    [
      "a YAML syntax error",
      "- rule: path-removed\n  reason: [r\n  expires: 2026-12-31\n",
      "3:3: Flow sequence in block collection must be sufficiently indented and end with a ]\n\n  reason: [r\n  expires: 2026-12-31\n  ^",
    ],
  ])("%s is a usage error (exit 2) before anything is compared", async (name, text, message) => {
    const list = acceptFile(`bad-${name.replace(/\W+/g, "-")}.yaml`, text);
    // HEAD does not exist: reaching the comparison would say so instead.
    const { code, out, err } = await dealkit(SPEC_PATH, join(dir, "missing.yaml"), "--accept", list);
    expect(code).toBe(2);
    expect(out).toBe("");
    const separator = /^\d+:\d+: /.test(message) ? ":" : ": ";
    expect(err.split("\n\nusage:")[0]).toBe(`dealkit diff: ${list}${separator}${message}`);
    expect(err).toContain("usage: dealkit diff BASE HEAD");
  });

  it("an unreadable list is a usage error", async () => {
    const { code, err } = await dealkit(SPEC_PATH, narrowed, "--accept", join(dir, "no-such-list.yaml"));
    expect(code).toBe(2);
    expect(err).toMatch(/^dealkit diff: cannot read .*no-such-list.yaml: ENOENT/);
  });
});
