/**
 * Tests that need a system program (redis-server, nginx, chromium) ask for it here. On a
 * developer's machine without it they are skipped, with one warning line saying what to install.
 * In CI (CI set, as CI services and .ci/run set it) a skip would pass a run that tested nothing:
 * there the missing program is a failing test instead, named after the program.
 */
import { describe, expect, it } from "vitest";

/** Whether this run must not skip for a missing program: CI=true (or any value but "false" or "0"). */
export function toolsRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== "" && ci !== "false" && ci !== "0";
}

export interface Tool {
  /** The program, as the warning and the failing test name it (e.g. "redis-server"). */
  name: string;
  available: boolean;
  /** How to install it (e.g. "apt-get install -y redis-server"). */
  install: string;
  /** What is skipped without it, for the warning (e.g. "the Redis failover tests"). */
  needs: string;
}

/**
 * Whether the tests needing `tool` can run: `describe.runIf(requireTool(…))`. When the program is
 * missing this registers, in CI, one failing test naming it; elsewhere it warns once.
 */
export function requireTool(tool: Tool, env: NodeJS.ProcessEnv = process.env): boolean {
  if (tool.available) return true;
  if (toolsRequired(env)) {
    describe(`${tool.name} (required in CI)`, () => {
      it(`is installed, for ${tool.needs}`, () => {
        expect.fail(`CI is set and ${tool.name} is missing (${tool.install}): ${tool.needs} cannot run`);
      });
    });
  } else {
    console.warn(`SKIPPED ${tool.needs}: no ${tool.name} (${tool.install})`);
  }
  return false;
}
