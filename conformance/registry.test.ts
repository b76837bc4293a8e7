import { describe, expect, it } from "vitest";
import { loadSpec } from "../src/spec/load.ts";
import { statusCodeDocumented } from "./checks/status-code-documented.ts";
import {
  defaultRegistry,
  missingEvidenceRule,
  Registry,
  selectChecks,
  UnknownCheckError,
} from "./registry.ts";
import type { Check } from "./types.ts";

const spec = await loadSpec();

describe("registry", () => {
  it("refuses a second check with the same name", () => {
    const registry = new Registry().register(statusCodeDocumented);
    expect(() => registry.register({ ...statusCodeDocumented })).toThrow(/already registered/);
  });

  it("holds one rule check per x-conformance rule of the spec", () => {
    const names = defaultRegistry(spec)
      .all()
      .map((c) => c.name);
    expect(names.filter((n) => n.startsWith("rule:"))).toEqual(
      spec.rules().map(({ rule }) => `rule:${rule.id}`),
    );
  });

  it.each([
    ["rules", undefined, (n: string) => n.startsWith("rule:")],
    ["rule:search-*", undefined, (n: string) => n.startsWith("rule:search-")],
    ["cors,rate-limit", undefined, (n: string) => n === "cors" || n === "rate-limit"],
    [undefined, "rules", (n: string) => !n.startsWith("rule:")],
  ] as const)("--only %s --skip %s", (only, skip, want) => {
    const registry = defaultRegistry(spec);
    const chosen = selectChecks(registry, only?.split(","), skip ? [skip] : []).map((c) => c.name);
    expect(chosen).toEqual(
      registry
        .all()
        .map((c) => c.name)
        .filter(want),
    );
  });

  // Evidence is declared, never assumed: an answer counts only when its check says it could have failed.
  it.each(
    defaultRegistry(spec)
      .all()
      .map((c) => [c.name, c] as const),
  )("%s says what is evidence for it", (_name, check) => {
    expect(missingEvidenceRule(check)).toBeUndefined();
  });

  it("the evidence test covers fixed, rule and relation checks", () => {
    const names = defaultRegistry(spec)
      .all()
      .map((c) => c.name);
    expect(names.filter((n) => n.startsWith("rule:")).length).toBeGreaterThan(0);
    expect(names.filter((n) => n.startsWith("relation:")).length).toBeGreaterThan(0);
    expect(names.filter((n) => !n.includes(":")).length).toBeGreaterThan(0);
  });

  it.each([
    [
      "a single-answer check without informative",
      { ...statusCodeDocumented, name: "x", informative: undefined },
      /does not say which are evidence/,
    ],
    [
      "a group check that plans nothing",
      {
        ...statusCodeDocumented,
        name: "x",
        judge: undefined,
        informative: undefined,
        judgeGroup: () => ({ findings: [], informative: true }),
      },
      /plans none/,
    ],
    [
      "a check that judges nothing",
      { ...statusCodeDocumented, name: "x", judge: undefined, informative: undefined },
      /judges nothing/,
    ],
  ])("refuses %s", (_what, check, error) => {
    // Cast: the type already refuses these; the registry refuses them from untyped code too.
    expect(() => new Registry().register(check as unknown as Check)).toThrow(error);
  });

  it("rejects an unknown name instead of running nothing", () => {
    expect(() => selectChecks(defaultRegistry(spec), ["status-code"])).toThrow(UnknownCheckError);
  });
});
