/** The spec diff: findings as data (diffDocuments), inputs (loadInput), formatters, --accept lists and the rule catalogue. */

export { InputError } from "../errors/input-error.ts";
export { SpecInputError } from "../spec/input.ts";
export { ACCEPT_KEYS, acceptChanges, acceptMatches, readAcceptedChanges } from "./accept.ts";
export { type DiffInput, diffDocuments } from "./diff.ts";
export { FORMATS, type Format, format } from "./format/index.ts";
export { FAIL_ON, type FailOn, failsOn } from "./gate.ts";
export { loadInput } from "./load-input.ts";
export { RULE_IDS, RULES, type RuleId, ruleInfo } from "./rules.ts";
export type {
  Acceptance,
  DiffOptions,
  DiffResult,
  Finding,
  Level,
  Location,
  Mode,
  Summary,
} from "./types.ts";
