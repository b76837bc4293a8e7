/**
 * The x-conformance vocabulary: rules JSON Schema cannot state, as data.
 * A rule says: when the request matches `when`, the response must satisfy `then`.
 * Semantics are documented in openapi/README.md.
 */

/** A value in a predicate: a literal, or the effective value of another query parameter. */
export type Operand = string | number | boolean | { param: string };

export type SetName = "priced-categories" | "unpriced-categories";

export interface Predicate {
  eq?: Operand;
  ne?: Operand;
  lt?: Operand;
  lte?: Operand;
  gt?: Operand;
  gte?: Operand;
  in?: (string | number)[];
  inSet?: SetName;
  notInSet?: SetName;
  /** true: the parameter was given with a non-empty value; false: absent or empty. */
  present?: boolean;
  /** true: absent or empty, or (for word parameters) no word left after splitting and trimming. */
  blank?: boolean;
  /** Unix seconds inside the rank window named by a parameter (x-rank-windows). */
  inWindow?: { param: string };
  /** A category ID equal to the category (alias or ID) named by a parameter. */
  sameCategory?: { param: string };
  /**
   * (item fields) The local date (YYYY-MM-DD) or time (HH:mm, the minute, not rounded) of the
   * item's Unix-seconds field `of`, in the contract's zone (x-rank-windows' timezone).
   */
  localTime?: LocalTime;
}

export interface LocalTime {
  of: string;
  format: "date" | "time";
}

export interface Condition {
  query?: Record<string, Predicate>;
  anyOf?: Condition[];
  /** Which credentials the request carried (personal streams). */
  credentials?: "valid" | "invalid";
}

export interface EachExpectation {
  /** JSON pointer of the array ("" is the body itself). */
  at: string;
  /** Only items whose fields satisfy these predicates are checked. */
  where?: Record<string, Predicate>;
  present?: string[];
  absent?: string[];
  fields?: Record<string, Predicate>;
  matches?: { param: string; mode: "any" | "none"; fields: string[] };
}

export interface Expectation {
  /** When given, the response must have this status; when absent, the rule judges 2xx responses only. */
  status?: number;
  each?: EachExpectation;
  count?: { at: string; max: number | { param: string } };
  order?: { at: string; by: { field: string; direction: "asc" | "desc" }[] };
  /** JSON pointers that must exist / must not exist in the body. */
  present?: string[];
  absent?: string[];
  /** JSON pointer of an array that must be empty. */
  empty?: string;
  /**
   * 4xx problem+json naming at least one of `params` in `errors[].name`; `type` is an
   * x-problem-types code; `reason` is what implementations tell the client about each named
   * parameter (the rule's summary is for the suite's reports).
   */
  problem?: { type?: string; params: string[]; reason?: string };
  /** Adding these parameters must not change the response body (needs a paired request). */
  ignores?: string[];
  /** Every response matching this rule has the same body (needs several requests). */
  uniformBody?: boolean;
  /** Values in the body that must equal values of this document. */
  mirrors?: Mirror[];
}

export type Mirror = { at: string; spec: string } | { at: string; set: string };

export interface Rule {
  id: string;
  summary: string;
  source: string;
  when?: Condition;
  then: Expectation;
  /** Answers that satisfy and violate the rule (documentation; required by the vocabulary schema). */
  examples?: Examples<RuleExample>;
}

/**
 * One request and its answer, as an example holds it: only what the rule reads (a body need not
 * be schema-complete). Query and path values are written as sent. `credentials` defaults to
 * `valid` on a key-protected operation; `mediaType` to the first one the spec documents for the
 * status; `time` (Unix seconds, when the request was sent and answered) matters only to rules
 * that read the clock (rank windows).
 */
export interface ExampleAnswer {
  /** What the example shows (shown on the reference page). */
  note?: string;
  query?: Record<string, string | number>;
  path?: Record<string, string | number>;
  credentials?: "valid" | "invalid";
  time?: number;
  status: number;
  mediaType?: string;
  body?: unknown;
}

/** A rule's example: one answer, or for rules judged across several answers (`ignores`, `uniformBody`) a group. */
export type RuleExample = ExampleAnswer | { note?: string; answers: ExampleAnswer[] };

/**
 * A relation's example: the first answer (A) and the second (B, made from A's request by `vary`).
 * B is an answer of the relation's `to.operation` when it has one (derived, never written, so
 * the example cannot disagree with the relation), else of the relation's own operation.
 */
export interface RelationExample {
  note?: string;
  first: ExampleAnswer;
  second: ExampleAnswer;
}

/** Examples that satisfy and that violate a rule or relation: at least one of each. */
export interface Examples<T> {
  satisfies: T[];
  violates: T[];
}

/** How the second request of a relation is made from the first: one change to one parameter. */
export type Variation =
  | { addWord: true }
  | { set: string | number }
  | { add: number }
  | { max: true }
  | { widerWindow: true }
  | { fromItem: string }
  | { remove: true }
  /** The last page: A's meta.total over A's page size (known once A's answer is in). */
  | { last: true }
  /**
   * The page after the last: one past A's last page (known once A's answer is in). A total capped
   * below the true count (a search engine's default total cap) leaves a consistent last page; only
   * the page after it still holds what the total does not count.
   */
  | { afterLast: true }
  /** The narrowest rank window holding this time field of A's first item carrying it (known once A's answer is in). */
  | { windowOf: string };

/** Which items take part in a subset or superset: read with the second request's parameters. */
export interface ItemFilter {
  where?: Record<string, Predicate>;
  matches?: { param: string; mode: "any" | "none"; fields: string[] };
}

export interface RelationExpectation {
  subset?: true | ItemFilter;
  superset?: true | ItemFilter;
  prefix?: true;
  disjoint?: true;
  total?: "gte" | "lte" | "eq";
  pageCounts?: true;
  /** B holds no items (the page after the last). Evidence only when A is a full page: the results reach past one page. */
  empty?: true;
  containsItem?: true;
  /** B holds A's items, in A's order (items tying in `order` either way). */
  equal?: true;
}

/**
 * A relation between two answers (x-relations): the first request is any that satisfies `when`;
 * the second is made from it by `vary`; `expect` says how their items and totals relate.
 */
export interface Relation {
  id: string;
  summary: string;
  source: string;
  when?: Condition;
  /**
   * The second request on another operation (default: the relation's own): B carries A's
   * parameters that operation declares too (path or query), with `vary` applied; its items are
   * at `at` (default: the relation's `at`).
   */
  to?: { operation: string; at?: string };
  vary: Record<string, Variation>;
  /** JSON pointer of the items (default /data). */
  at?: string;
  /** The field that identifies an item (default id). */
  key?: string;
  /** The answers' order: how far a ranking reaches. */
  order?: { field: string; direction: "asc" | "desc" }[];
  expect: RelationExpectation;
  /** Pairs of answers that satisfy and violate the relation (documentation; required by the vocabulary schema). */
  examples?: Examples<RelationExample>;
}
