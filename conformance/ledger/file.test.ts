/** A --ledger file that is not a ledger is refused naming the file and the reason, a syntax error with where. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LedgerError, readLedger } from "./file.ts";

const dir = mkdtempSync(join(tmpdir(), "dealkit-ledger-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe("readLedger refuses what is not a ledger", () => {
  it.each([
    ["an empty object", { given: "{}", want: /^--ledger \S+ is not a dealkit ledger/ }],
    ["null", { given: "null", want: /^--ledger \S+ is not a dealkit ledger/ }],
    [
      "a JSON syntax error",
      {
        given: '{\n  "format": "dealkit-ledger",\n  "kinds": {,}\n}\n',
        want: /^--ledger \S+\.json:3:13: Unexpected , in flow map\n\n {2}"kinds": \{,\}\n {12}\^$/,
      },
    ],
    [
      "a trailing comma (YAML reads it, JSON does not)",
      {
        given: '{\n  "format": "dealkit-ledger",\n}\n',
        want: /^--ledger \S+\.json:3:1: Expected double-quoted property name\n\n\}\n\^$/,
      },
    ],
  ])("%s", async (name, { given, want }) => {
    const path = file(`${name.replace(/\W+/g, "-")}.json`, given);
    const err = await readLedger(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LedgerError);
    expect((err as Error).message).toMatch(want);
    expect((err as Error).message).toContain(path);
  });
});
