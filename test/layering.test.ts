/**
 * The floors of the kit, checked on every import. The library (src/) stands on its own; the suite
 * (conformance/), the reference server (reference-server/) and the mock (mocks/) build on it; the
 * CLI (cli/) stands above them all and wires them. An arrow may point down, never up: the library
 * imports none of the three rooms above it, and nothing but the CLI itself imports the CLI.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/**
 * Tests of the library that start the server or the mock to try the client or the reader page
 * against a real answer: integration tests kept beside what they test. The library's own modules
 * have no such exception.
 */
const LIBRARY_TESTS_USING_UPPER_FLOORS = [
  "src/client/client.mock.test.ts",
  "src/client/client.reference.test.ts",
  "src/client/client.variations.test.ts",
  "src/docs/reader.test.ts",
];

/** Every way a module names another: import/export from, import(), vi.mock(), new URL(…, import.meta.url). */
const SPECIFIER =
  /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\bvi\.mock\s*\(\s*)["']([^"']+)["']|\bnew URL\(\s*["']([^"']+)["']\s*,\s*import\.meta\.url/g;

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)).split(sep).join("/"));
}

/** The top-level folders a file's relative imports land in. */
function floorsImportedBy(file: string): Set<string> {
  const text = readFileSync(join(ROOT, file), "utf8");
  const floors = new Set<string>();
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2] ?? "";
    if (!spec.startsWith(".")) continue;
    const target = relative(ROOT, resolve(ROOT, dirname(file), spec));
    const [top] = target.split(sep);
    if (top && top !== ".." && target !== "") floors.add(top);
  }
  return floors;
}

const importers = (dirs: string[], floor: string) =>
  dirs.flatMap(filesUnder).filter((f) => floorsImportedBy(f).has(floor));

describe("the layering", () => {
  it("finds the imports it judges (the CLI's imports of every floor below it)", () => {
    const below = new Set(filesUnder("cli").flatMap((f) => [...floorsImportedBy(f)]));
    expect([...below].sort()).toEqual(
      expect.arrayContaining(["conformance", "mocks", "reference-server", "src"]),
    );
  });

  it("nothing in the library, the suite, the server or the mock imports the CLI", () => {
    expect(importers(["src", "conformance", "reference-server", "mocks"], "cli")).toEqual([]);
  });

  it.each(["conformance", "reference-server", "mocks"])(
    "the library imports nothing from %s/ (but the named integration tests)",
    (floor) => {
      const found = importers(["src"], floor);
      expect(found.filter((f) => !LIBRARY_TESTS_USING_UPPER_FLOORS.includes(f))).toEqual([]);
    },
  );

  it("every library test named as an exception still is one", () => {
    const upper = ["conformance", "reference-server", "mocks"];
    const stale = LIBRARY_TESTS_USING_UPPER_FLOORS.filter(
      (f) => !upper.some((floor) => floorsImportedBy(f).has(floor)),
    );
    expect(stale).toEqual([]);
  });
});
