import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RULE_IDS, ruleInfo } from "./rules.ts";

const readme = readFileSync(new URL("./README.md", import.meta.url), "utf8");

/** The README's rule table documents every rule id with the level and meaning the catalogue gives it. */
describe("README rule table", () => {
  it.each(RULE_IDS)("%s", (id) => {
    const { level, meaning } = ruleInfo(id);
    expect(readme).toContain(`| \`${id}\` | ${level} | ${meaning.replace(/\|/g, "\\|")} |`);
  });
});
