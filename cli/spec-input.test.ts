/**
 * Every command that reads a spec refuses one that is not what it claims, naming the option (or
 * the diff's side), the file and the reason: the check is src/spec/input.ts, shared by all of
 * them, so no command judges `hello: world` as an API with no operations or a v2.
 * Every one of them exits 2 (cli/main.ts turns an InputError that reaches it into exit 2).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { SPEC_PATH } from "../src/spec/paths.ts";
import { main } from "./main.ts";

const dir = mkdtempSync(join(tmpdir(), "dealkit-spec-input-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const INFO = "info: { title: t, version: 1.0.0 }\n";
/** Not specs, each with the reason its refusal gives. */
const NOT_SPECS: [string, { given: string | undefined; reason: string }][] = [
  ["hello: world", { given: "hello: world\n", reason: 'not an OpenAPI document: it has no "openapi" field' }],
  ["{}", { given: "{}\n", reason: 'not an OpenAPI document: it has no "openapi" field' }],
  [
    "openapi: 3.1.0 without paths",
    { given: `openapi: 3.1.0\n${INFO}`, reason: 'it has no "paths": an API document without operations' },
  ],
  [
    "a broken $ref",
    {
      given: `openapi: 3.1.0\n${INFO}paths:\n  /a: { $ref: "#/components/pathItems/Nope" }\n`,
      reason: "$ref #/components/pathItems/Nope at #/paths/~1a does not resolve",
    },
  ],
  ["a missing file", { given: undefined, reason: "cannot be read (no such file)" }],
  [
    "a YAML syntax error",
    {
      given: "openapi: 3.1.0\ninfo:\n  title: [t\npaths: {}\n",
      reason: "Flow sequence in block collection must be sufficiently indented and end with a ]",
    },
  ],
];

const recording = join(dir, "one.ndjson");
writeFileSync(
  recording,
  `${JSON.stringify({ kind: "exchange", method: "GET", url: "http://x/api/v1/meta", status: 200 })}\n`,
);

/** Each command with its spec argument: where the path goes, what the message calls it, the exit. */
const COMMANDS: [string, { args: (spec: string) => string[]; side: string; exit: 2 }][] = [
  ["diff (base)", { args: (s) => ["diff", s, SPEC_PATH], side: "base", exit: 2 }],
  ["diff (head)", { args: (s) => ["diff", SPEC_PATH, s], side: "head", exit: 2 }],
  ["judge --spec", { args: (s) => ["judge", recording, "--spec", s], side: "--spec", exit: 2 }],
  [
    "proxy --spec",
    { args: (s) => ["proxy", "--upstream", "http://127.0.0.1:9", "--spec", s], side: "--spec", exit: 2 },
  ],
  ["conformance --spec", { args: (s) => ["conformance", "--spec", s], side: "--spec", exit: 2 }],
  [
    "watch --spec",
    {
      args: (s) => [
        "watch",
        "--base-url",
        "http://127.0.0.1:9",
        "--ledger",
        join(dir, "l.json"),
        "--spec",
        s,
      ],
      side: "--spec",
      exit: 2,
    },
  ],
  ["mock --spec", { args: (s) => ["mock", "--spec", s], side: "--spec", exit: 2 }],
  [
    "docs --spec",
    { args: (s) => ["docs", "--spec", s, "--out", join(dir, "d.html")], side: "--spec", exit: 2 },
  ],
  ["release --spec", { args: (s) => ["release", "--spec", s], side: "--spec", exit: 2 }],
];

/** main() with its output caught: the exit code and what it printed on stderr. */
async function dealkit(args: string[]): Promise<{ exit: number; message: string }> {
  const lines: string[] = [];
  vi.spyOn(console, "log").mockImplementation(() => {});
  vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void lines.push(a.join(" ")));
  return { exit: await main(args), message: lines.join("\n") };
}

describe.each(COMMANDS)("dealkit %s refuses what is not a spec", (_, { args, side, exit }) => {
  it.each(NOT_SPECS)("%s", async (name, { given, reason }) => {
    const path = join(dir, `${name.replace(/\W+/g, "-")}.yaml`);
    if (given !== undefined) writeFileSync(path, given);
    const ran = await dealkit(args(path));
    expect(ran.exit, ran.message).toBe(exit);
    expect(ran.message).toMatch(new RegExp(`${side} ${path}(:\\d+:\\d+)?: `));
    expect(ran.message).toContain(reason);
  });
});
