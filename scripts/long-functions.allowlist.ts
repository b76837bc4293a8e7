/**
 * The functions over 80 lines still waiting to be split, each with why it waits and its length when
 * it was listed. `long-functions.test.ts` fails when a listed function grows past that length or no
 * longer needs its entry, so this list can only shrink: split a function, then delete its line.
 */
export interface AllowedLongFunction {
  file: string;
  /** As scripts/long-functions.ts names it: "outer > inner" for a nested function. */
  name: string;
  /** Its length when listed: it may shrink, not grow. */
  lines: number;
  reason: string;
}

const PARALLEL = "being edited in parallel; split after merge";
const OUTSIDE = "a test harness outside the rooms issue 40 split first; split next";

export const ALLOWED_LONG_FUNCTIONS: AllowedLongFunction[] = [
  { file: "mocks/rule-layer.ts", name: "createRuleLayer", lines: 154, reason: PARALLEL },
  { file: "conformance/http/client.ts", name: "sendOnce", lines: 99, reason: PARALLEL },
  { file: "test/actions/run-action.ts", name: "runAction", lines: 94, reason: OUTSIDE },
  { file: "conformance/main.ts", name: "conformanceCommand", lines: 90, reason: PARALLEL },
  {
    file: "conformance/http/client.ts",
    name: "sendOnce > new Promise(…) callback",
    lines: 87,
    reason: PARALLEL,
  },
];
