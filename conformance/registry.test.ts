import { describe, expect, it } from "vitest";
import { loadSpec } from "../src/spec/load.ts";
import { statusCodeDocumented } from "./checks/status-code-documented.ts";
import { defaultRegistry, Registry, selectChecks, UnknownCheckError } from "./registry.ts";

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

  it("rejects an unknown name instead of running nothing", () => {
    expect(() => selectChecks(defaultRegistry(spec), ["status-code"])).toThrow(UnknownCheckError);
  });
});
