import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { loadSpec, parseDocument, type RawDocument } from "./load.ts";
import { documentDifferences, freezeRelease } from "./release.ts";

const current = async (): Promise<RawDocument> => structuredClone((await loadSpec()).raw);

/** One version, one document: what the release guard (guard.test.ts) and `dealkit release` hold. */
describe("documentDifferences", () => {
  it("finds no difference in the same document written another way (key order, quoting, comments)", async () => {
    const raw = await current();
    const reordered = Object.fromEntries(Object.entries(raw).reverse());
    const rewritten = parseDocument(
      `# a comment\n${stringify(reordered, { defaultStringType: "QUOTE_DOUBLE" })}`,
    );
    expect(documentDifferences(raw, rewritten)).toEqual([]);
  });

  it("counts a documentation-only edit: a description, an example", async () => {
    const raw = await current();
    const edited = await current();
    (edited.info as { description: string }).description += " More.";
    const examples = (edited.components as { examples: Record<string, { value: unknown }> }).examples;
    const [name] = Object.keys(examples);
    (examples[name as string] as { value: unknown }).value = "another example";
    expect(documentDifferences(raw, edited)).toEqual([
      "/info/description",
      `/components/examples/${name}/value`,
    ]);
  });

  it("names a key added or removed, escaping / in path names", () => {
    expect(documentDifferences({ paths: { "/a": 1 } }, { paths: { "/a": 1, "/b": 2 } })).toEqual([
      "/paths/~1b",
    ]);
    expect(documentDifferences({ a: [1, 2] }, { a: [1] })).toEqual(["/a/1"]);
  });
});

describe("freezeRelease", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "dealkit-release-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("freezes a new version, is idle on the same document again, refuses a different one", async () => {
    const raw = await current();
    const path = await freezeRelease(raw, dir);
    expect(path).toBe(join(dir, `${(raw.info as { version: string }).version}.yaml`));
    expect(await freezeRelease(raw, dir)).toBeUndefined();
    const edited = await current();
    (edited.info as { description: string }).description += " More.";
    await expect(freezeRelease(edited, dir)).rejects.toThrow(
      /differs from it at \/info\/description: bump info.version/,
    );
    expect(await readdir(dir)).toEqual([path?.split("/").at(-1)]);
  });

  it("refuses a version that is not semver", async () => {
    const raw = await current();
    (raw.info as { version: string }).version = "1.1";
    await expect(freezeRelease(raw, dir)).rejects.toThrow(/must be semver/);
    expect(await readdir(dir)).toEqual([]);
  });
});
