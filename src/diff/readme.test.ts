import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RULE_IDS, ruleInfo } from "./rules.ts";

const readme = readFileSync(new URL("./README.md", import.meta.url), "utf8");

/** The README's rule table documents every rule id with the level the catalogue gives it. */
describe("README rule table", () => {
  it.each(RULE_IDS)("%s", (id) => {
    expect(readme).toContain(`| \`${id}\` | ${ruleInfo(id).level} |`);
  });
});
