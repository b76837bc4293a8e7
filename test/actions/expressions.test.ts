/** The expression subset the local runner evaluates: it must agree with GitHub's on what our actions use. */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these are GitHub expressions, not templates
import { describe, expect, it } from "vitest";
import { condition, evaluate, substitute } from "./expressions.ts";

const context = {
  inputs: { "node-version": "", summary: "true", seed: "7" },
  steps: { run: { outputs: { "exit-code": "1" } } },
  github: { run_number: "12" },
};

describe("expressions", () => {
  it("substitutes paths, and an unset output is empty", () => {
    expect(substitute("seed ${{ inputs.seed }}, run ${{ github.run_number }}", context)).toBe(
      "seed 7, run 12",
    );
    expect(substitute("[${{ steps.run.outputs.exit-code }}${{ steps.run.outputs.missing }}]", context)).toBe(
      "[1]",
    );
  });

  it("compares case-insensitively and combines with && || !", () => {
    expect(evaluate("inputs.summary == 'TRUE'", context)).toBe(true);
    expect(evaluate("inputs.node-version != ''", context)).toBe(false);
    expect(evaluate("!(inputs.seed == '7') || inputs.summary == 'true' && inputs.seed != ''", context)).toBe(
      true,
    );
    expect(evaluate("'it''s'", context)).toBe("it's");
  });

  it("an if: implies success() unless it names a status function", () => {
    expect(condition(undefined, context, { failed: true })).toBe(false);
    expect(condition("inputs.summary == 'true'", context, { failed: true })).toBe(false);
    expect(condition("${{ always() && inputs.summary == 'true' }}", context, { failed: true })).toBe(true);
    expect(condition("failure()", context, { failed: false })).toBe(false);
  });

  it("refuses what it does not know, instead of guessing", () => {
    expect(() => evaluate("secrets.KEY", context)).toThrow("unknown context secrets");
    expect(() => evaluate("contains(inputs.seed, '7')", context)).toThrow("not understood");
    expect(() => evaluate("inputs.seed ==", context)).toThrow("ends early");
  });
});
