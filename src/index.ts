/** dealkit: the library behind the CLI. Every consumer reads the spec through loadSpec. */
export * from "./diff/index.ts";

export type { components, operations, paths } from "./generated/api-types.ts";
export type { RuleExchange, RuleFailure, RuleOptions } from "./rules/evaluate.ts";
export { checkRule, conditionHolds, refusingRules } from "./rules/evaluate.ts";
export { collect, get, has } from "./rules/pointer.ts";
export type * from "./rules/types.ts";
export { windowRange } from "./rules/windows.ts";
export { containsWord, splitWords } from "./rules/words.ts";
export type { RawDocument } from "./spec/load.ts";
export { loadSpec, parseDocument, specFromDocument } from "./spec/load.ts";
export { RELEASES_DIR, SPEC_PATH } from "./spec/paths.ts";
export type { ParamError, ParsedRequest } from "./spec/request.ts";
export { parseRequest } from "./spec/request.ts";
export { Spec } from "./spec/spec.ts";
export type * from "./spec/types.ts";
