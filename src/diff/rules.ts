import type { Level } from "./types.ts";

/**
 * The catalogue of diff rules: one fixed level per id, so a reviewer can learn what an id means
 * once. README.md documents the same table (a test keeps the two in step). `advice` is the
 * migration note a client developer reads when the change comes with a new major.
 */
export interface RuleInfo {
  level: Level;
  meaning: string;
  advice: string;
}

const B = "breaking" as const;
const W = "warning" as const;
const I = "info" as const;

export const RULES = {
  // Paths and operations
  "path-removed": [B, "A path is gone.", "Stop calling it; use the replacement named in the notes."],
  "path-moved": [
    B,
    "A path moved to another URL (across majors, found by its operationId).",
    "Call the new path.",
  ],
  "operation-removed": [B, "An operation (method) of a path is gone.", "Stop calling it."],
  "v1-path-removed-before-support-ends": [
    B,
    "A v1 path is removed while its successor is younger than the support period (6 months).",
    "Nothing yet: v1 must keep serving it.",
  ],
  "v1-path-retired": [
    W,
    "A v1 path is removed after the successor's support period: allowed by the policy, still breaks v1 clients.",
    "Move to the successor path.",
  ],
  "path-added": [I, "A new path.", "Optional: use it."],
  "operation-added": [I, "A new operation.", "Optional: use it."],
  "operation-id-on-wire-changed": [
    B,
    "The operationId changed, and the document's own response examples carry it (a map keyed by operationId): clients that look the old key up find nothing.",
    "Look the new operationId up.",
  ],
  "operation-id-changed": [
    W,
    "The operationId changed: generated client method names change.",
    "Regenerate the client and rename calls.",
  ],
  "operation-deprecated": [
    I,
    "An operation is now marked deprecated, or given an x-sunset date.",
    "Plan to move off it.",
  ],
  "security-added": [B, "A public operation now needs credentials.", "Send the credentials it now requires."],
  "security-changed": [
    B,
    "The credentials an operation accepts changed.",
    "Send the credentials it now requires.",
  ],
  "security-removed": [I, "An operation no longer needs credentials.", "You may stop sending credentials."],
  "security-scheme-changed": [
    B,
    "A security scheme changed its type, location or name, or was removed.",
    "Send the key the way the scheme now says.",
  ],
  // Request parameters and bodies
  "request-parameter-removed": [
    B,
    "A request parameter is gone: the server ignores it now.",
    "Stop sending it; the filter it applied no longer exists.",
  ],
  "request-parameter-added-required": [B, "A new required request parameter.", "Send it on every call."],
  "request-parameter-added": [I, "A new optional request parameter.", "Optional: use it."],
  "request-parameter-became-required": [
    B,
    "An optional request parameter is now required.",
    "Always send it.",
  ],
  "request-parameter-became-optional": [
    I,
    "A required request parameter is now optional.",
    "Nothing to change.",
  ],
  "request-parameter-style-changed": [
    B,
    "A parameter's serialization (style/explode/location) changed.",
    "Serialize it the new way.",
  ],
  "request-words-narrowed": [
    B,
    "x-words accepts less: a separator dropped or a word bound lowered.",
    "Send fewer or shorter words, with the remaining separators.",
  ],
  "request-words-widened": [I, "x-words accepts more: a word bound raised.", "Nothing to change."],
  "request-words-semantics-changed": [
    B,
    "x-words splits, matches or combines words differently (a separator added splits words that were one).",
    "Check that your queries still select what you mean.",
  ],
  "request-body-became-required": [B, "The request body is now required.", "Send a body."],
  "request-media-type-removed": [
    B,
    "A request media type is no longer accepted.",
    "Send one of the remaining media types.",
  ],
  "request-media-type-added": [I, "A new request media type is accepted.", "Nothing to change."],
  // Schemas, direction-aware (request: what clients send; response: what clients read)
  "request-type-changed": [B, "A request value accepts fewer types.", "Send the new type."],
  "request-type-widened": [I, "A request value accepts more types.", "Nothing to change."],
  "response-type-changed": [
    B,
    "A response value may now have a type it could not have before.",
    "Read the new type.",
  ],
  "response-type-narrowed": [I, "A response value has fewer possible types.", "Nothing to change."],
  "response-field-became-nullable": [B, "A response field may now be null.", "Handle null."],
  "response-field-removed": [
    B,
    "A response field is gone (also in nested objects, array items and oneOf branches).",
    "Stop reading it.",
  ],
  "response-field-added": [
    I,
    "A new response field.",
    "Optional: read it (clients must ignore unknown fields).",
  ],
  "response-field-became-optional": [
    B,
    "A required response field may now be absent.",
    "Handle its absence.",
  ],
  "response-field-became-required": [
    I,
    "An optional response field is now always present.",
    "Nothing to change.",
  ],
  "request-property-added-required": [B, "A new required property in a request body.", "Send it."],
  "request-property-added": [I, "A new optional property in a request body.", "Optional: send it."],
  "request-property-removed": [
    W,
    "A request body property is gone: the server may ignore or refuse it.",
    "Stop sending it.",
  ],
  "request-property-became-required": [B, "A request body property is now required.", "Always send it."],
  "request-enum-value-removed": [
    B,
    "A request value is no longer accepted (enum value removed or enum introduced).",
    "Stop sending the removed values.",
  ],
  "request-enum-value-added": [I, "A request value accepts a new enum value.", "Optional: use it."],
  "response-enum-value-added": [
    W,
    "A response field may carry a value clients have not seen.",
    "Handle the new value (or any unknown value).",
  ],
  "response-const-widened": [
    B,
    "A response value that had one fixed value (const) may now carry others: a discriminator can no longer route items.",
    "Handle the new values of the field; route unknown item kinds explicitly.",
  ],
  "response-enum-value-changed": [
    B,
    "A response value was replaced by another (enum value renamed, const changed).",
    "Match the new value.",
  ],
  "response-enum-value-removed": [I, "A response field no longer carries some value.", "Nothing to change."],
  "request-bound-narrowed": [
    B,
    "A numeric, length or count bound of a request value is tighter.",
    "Stay within the new bound.",
  ],
  "request-bound-widened": [I, "A bound of a request value is looser.", "Nothing to change."],
  "response-bound-widened": [
    B,
    "A bound of a response value is looser: clients may see values they did not expect.",
    "Accept the wider range.",
  ],
  "response-bound-narrowed": [I, "A bound of a response value is tighter.", "Nothing to change."],
  "request-pattern-narrowed": [
    B,
    "A request pattern was added, or changed so that a value it accepted is refused.",
    "Send values that match the new pattern.",
  ],
  "request-pattern-widened": [I, "A request pattern was removed or now accepts more.", "Nothing to change."],
  "response-pattern-widened": [
    B,
    "A response pattern was removed, or changed so that it admits strings it did not.",
    "Accept values outside the old pattern.",
  ],
  "response-pattern-narrowed": [
    I,
    "A response pattern was added or now admits fewer strings.",
    "Nothing to change.",
  ],
  "pattern-changed": [
    W,
    "A pattern changed and no witness string shows which way: a reviewer should look.",
    "Check values against the new pattern.",
  ],
  "request-values-narrowed": [
    B,
    "A request value, compared as the set of values its schema admits (allOf/oneOf/anyOf branches, enums, patterns, bounds), refuses a value it accepted.",
    "Send only values the new schema admits.",
  ],
  "request-values-widened": [
    I,
    "A request value's schema, compared as a set, admits more values.",
    "Nothing to change.",
  ],
  "response-values-widened": [
    B,
    "A response value's schema, compared as a set (allOf/oneOf/anyOf branches, enums, patterns, bounds), admits a value it did not.",
    "Accept the values the new schema admits.",
  ],
  "response-values-narrowed": [
    I,
    "A response value's schema, compared as a set, admits fewer values.",
    "Nothing to change.",
  ],
  "values-undecided": [
    W,
    "A value's schema was respelled (compositions, patterns) and no value shows whether the set it admits changed: a reviewer should look.",
    "Check the values you send or read against the new schema.",
  ],
  "request-format-narrowed": [
    B,
    "A request string format was added or changed.",
    "Send values in the new format.",
  ],
  "request-format-widened": [I, "A request string format was removed.", "Nothing to change."],
  "response-format-widened": [
    B,
    "A response string format was removed or changed.",
    "Accept values in the new format.",
  ],
  "response-format-narrowed": [I, "A response string format was added.", "Nothing to change."],
  "default-changed": [
    B,
    "A request default changed, appeared or was removed: a call that omits the value now means something else.",
    "Send the value explicitly if you relied on the old default.",
  ],
  "request-properties-closed": [
    B,
    "A request object no longer accepts properties it does not list (additionalProperties false).",
    "Send only the listed properties.",
  ],
  "response-properties-closed": [
    I,
    "A response object now promises no properties beyond those it lists (additionalProperties false).",
    "Nothing to change.",
  ],
  "properties-opened": [
    I,
    "An object closed by additionalProperties false may now hold other properties (clients ignore unknown fields).",
    "Nothing to change.",
  ],
  "response-schema-branch-removed": [
    B,
    "A oneOf/anyOf branch of a response is gone (its shape is no longer returned).",
    "Drop the code that reads that shape.",
  ],
  "response-schema-branch-added": [
    B,
    "A response may have a new oneOf/anyOf shape: clients that parse each known shape meet one they cannot.",
    "Handle the new shape.",
  ],
  "request-schema-branch-removed": [
    B,
    "A oneOf/anyOf branch of a request is no longer accepted.",
    "Send one of the remaining shapes.",
  ],
  "request-schema-branch-added": [I, "A request accepts a new oneOf/anyOf shape.", "Nothing to change."],
  "response-schema-oneof-to-anyof": [
    W,
    "A response's oneOf became anyOf: a value may now match several of its shapes.",
    "Do not assume exactly one shape matches.",
  ],
  "response-schema-anyof-to-oneof": [
    I,
    "A response's anyOf became oneOf: each value matches exactly one of its shapes.",
    "Nothing to change.",
  ],
  "request-schema-oneof-to-anyof": [
    I,
    "A request's oneOf became anyOf: a value matching several shapes is now accepted.",
    "Nothing to change.",
  ],
  "request-schema-anyof-to-oneof": [
    B,
    "A request's anyOf became oneOf: a value matching several shapes is now refused.",
    "Send values that match exactly one shape.",
  ],
  // Responses
  "response-status-removed": [
    B,
    "A documented success or redirect status is gone.",
    "Stop relying on that status.",
  ],
  "response-error-status-removed": [
    W,
    "A documented error status (4xx, 5xx, default) is gone: the requests that got it are served or answered otherwise.",
    "Keep handling it until the server stops sending it.",
  ],
  "response-redirect-added": [
    B,
    "A redirect status (301, 302, 303, 307, 308) now answers an operation: clients follow it and read the target's body as this one's.",
    "Call the target URL, and read its body as documented there.",
  ],
  "response-status-added": [W, "A new documented response status.", "Handle the new status."],
  "response-header-removed": [
    B,
    "A response header is gone (e.g. Retry-After, RateLimit-*).",
    "Stop reading it.",
  ],
  "response-header-added": [I, "A new response header.", "Optional: read it."],
  "response-header-became-optional": [
    B,
    "A required response header may now be absent.",
    "Handle its absence.",
  ],
  "response-media-type-removed": [
    B,
    "A response media type is no longer served.",
    "Accept one of the remaining media types.",
  ],
  "response-media-type-added": [I, "A new response media type.", "Nothing to change."],
  "media-type-parameters-changed": [
    I,
    "The same media type with other parameters (e.g. charset=utf-8 stated on application/json): bodies decode the same.",
    "Nothing to change: match the media type without its parameters.",
  ],
  // x-rules (the contract JSON Schema cannot state)
  "rate-limit-tightened": [
    B,
    "x-rate-limit allows fewer requests (limit lowered, rate lowered, or more requests counted).",
    "Pace requests under the new limit.",
  ],
  "rate-limit-loosened": [I, "x-rate-limit allows more requests.", "Nothing to change."],
  "rate-limit-signal-changed": [
    B,
    "How the rate limit is signalled changed (the 429 status, the Retry-After format).",
    "Detect the limit and wait the way the policy now says.",
  ],
  "rate-limit-changed": [
    W,
    "x-rate-limit changed in a way that is neither tighter nor looser (algorithm, scope, what it applies to).",
    "Re-read the rate-limit policy.",
  ],
  "cors-narrowed": [
    B,
    "x-cors allows browsers less (origin, exposed headers, preflight methods or headers, statuses).",
    "Browser clients: check cross-origin calls still work.",
  ],
  "cors-widened": [I, "x-cors allows browsers more.", "Nothing to change."],
  "cors-preflight-status-changed": [
    I,
    "The preflight answers another 2xx status: browsers accept any ok status (Fetch: 200 to 299).",
    "Nothing to change.",
  ],
  "methods-narrowed": [
    B,
    "x-methods answers less: a method no longer allowed, or HEAD or OPTIONS answered differently.",
    "Call with GET, or handle the new answer.",
  ],
  "methods-widened": [I, "x-methods allows a new method.", "Nothing to change."],
  "query-length-lowered": [
    B,
    "x-query-string allows shorter query strings: a long request that was served is now refused.",
    "Keep query strings under the new cap (counted as sent, percent-encoded).",
  ],
  "query-length-raised": [I, "x-query-string allows longer query strings.", "Nothing to change."],
  "query-decoding-changed": [
    B,
    "x-query-string decodes the query otherwise: the same request may now say something else.",
    "Encode queries as the new decoding reads them.",
  ],
  "caching-loosened": [
    B,
    "x-caching lets shared caches reuse a kind of answer without asking the API (no-store, no-cache or private dropped): the policy says such a replay breaks the contract.",
    "Do not reuse such answers from a shared cache.",
  ],
  "caching-changed": [
    W,
    "x-caching changed what caches may keep (the Cache-Control an answer carries).",
    "Check what your cache or CDN keeps, and whether a client reads answers it cached.",
  ],
  "compression-changed": [
    I,
    "x-compression changed the codings an answer may use or the Vary it carries (identity always remains).",
    "Nothing to change: send the Accept-Encoding you can decode.",
  ],
  "transport-policy-added": [
    I,
    "A policy of how answers travel (x-query-string, x-caching, x-compression, x-methods, x-request-gate where the description already said it) is now stated.",
    "Nothing to change; caches and proxies in front of an implementation may need configuring.",
  ],
  "request-head-cap-lowered": [
    B,
    "x-request-gate serves smaller request heads: head_max_bytes lowered, or the largest head that must be served lowered (more slack_bytes), or the head measured more strictly: a client with long cookies or tokens that was served gets 431.",
    "Send smaller headers (shorter cookies or tokens).",
  ],
  "request-head-cap-raised": [I, "x-request-gate serves larger request heads.", "Nothing to change."],
  "request-gate-answer-changed": [
    B,
    "A request refused before routing, or a path with %2F in a segment, is answered with another status, problem type or media type: clients that read it fail.",
    "Read the new status and problem type.",
  ],
  "request-gate-refusal-added": [
    B,
    "x-request-gate refuses a new kind of request before routing: requests of that kind, served before, are refused.",
    "Stop sending requests of that kind.",
  ],
  "request-gate-refusal-removed": [
    W,
    "A kind of request x-request-gate refused is no longer listed: its answer is no longer promised.",
    "Do not rely on the refusal's answer.",
  ],
  "request-gate-changed": [
    W,
    "x-request-gate changed in a way that is neither tighter nor looser (the connection after a refusal kept open or closed).",
    "Read the change.",
  ],
  "request-gate-added": [
    W,
    "x-request-gate is stated where the description did not already say it: a cap and refusals not promised before.",
    "Keep request heads under the cap.",
  ],
  "request-gate-removed": [
    B,
    "x-request-gate is gone: no request head size must be served any more, and refusals before routing may come in any form (no problem+json, no CORS).",
    "Keep request heads small (8 KB, a proxy's common default) and expect refusals you cannot read.",
  ],
  "client-rule-added": [
    W,
    "x-client-rules asks something new of clients: a client that conformed may now fail the client judge (no wire change).",
    "Check your client against the new rule (dealkit judge --clients).",
  ],
  "client-rule-tightened": [
    W,
    "An x-client-rules rule asks more of clients (a tolerance lowered, more statuses or names judged): a client that conformed may now fail the client judge (no wire change).",
    "Check your client against the rule (dealkit judge --clients).",
  ],
  "client-rule-changed": [
    W,
    "An x-client-rules rule reads something else (a pointer, a name, a parameter added or dropped): a client's verdict may change.",
    "Check your client against the rule (dealkit judge --clients).",
  ],
  "client-rule-loosened": [I, "An x-client-rules rule asks less of clients.", "Nothing to change."],
  "client-rule-removed": [
    I,
    "An x-client-rules rule is gone: clients are no longer judged by it.",
    "Nothing to change.",
  ],
  "client-rules-stated": [
    I,
    "x-client-rules is stated for the first time: no client was judged against the document before, so no verdict changes.",
    "Optional: judge your client (dealkit judge --clients).",
  ],
  "category-removed": [B, "A category of x-categories is gone.", "Stop asking for it."],
  "category-changed": [B, "A category's id or alias changed.", "Use the new id or alias."],
  "category-added": [I, "A new category.", "Optional: use it."],
  "priced-kind-dropped": [
    B,
    "A category or stream no longer carries prices (priced true→false, priced_streams shrunk).",
    "Do not rely on prices or price filters there.",
  ],
  "priced-kind-added": [I, "A category or stream now carries prices.", "Optional: filter it by price."],
  "rank-window-removed": [B, "A rank window of x-rank-windows is gone.", "Use another window."],
  "rank-window-changed": [
    B,
    "A rank window covers a different span, or the rank order or timezone changed.",
    "Check that the window still means what you use it for.",
  ],
  "rank-window-added": [I, "A new rank window.", "Optional: use it."],
  "x-conformance-rule-removed": [
    B,
    "An x-conformance rule is gone: the behaviour it promised is no longer promised.",
    "Do not rely on that behaviour.",
  ],
  "x-conformance-rule-changed": [
    B,
    "An x-conformance rule's condition or expectation changed.",
    "Re-check the behaviour the rule describes.",
  ],
  "x-conformance-rule-added": [I, "A new x-conformance rule: a new promise.", "Nothing to change."],
  "x-conformance-refusal-added": [
    B,
    "A new refusing x-conformance rule (a 4xx): requests it matches, served before, are now refused.",
    "Stop sending the requests the rule refuses.",
  ],
  "x-conformance-refusal-narrowed": [
    I,
    "A refusing x-conformance rule gained conditions (every old one kept): it refuses fewer requests.",
    "Nothing to change.",
  ],
  "x-conformance-refusal-removed": [
    I,
    "A refusing x-conformance rule (a 4xx) is gone: requests it refused may now be served.",
    "Nothing to change; do not rely on that refusal.",
  ],
  "x-relation-removed": [
    B,
    "An x-relations relation is gone: how two answers relate is no longer promised.",
    "Do not rely on that relation between answers.",
  ],
  "x-relation-changed": [
    B,
    "An x-relations relation's condition, variation or expectation changed (loosened or otherwise).",
    "Re-check how the answers relate.",
  ],
  "x-relation-added": [
    I,
    "A new x-relations relation: a new promise about how answers relate.",
    "Nothing to change.",
  ],
  "retention-lowered": [
    B,
    "A rule's fixed count.max (feed retention) is lower: fewer items are kept.",
    "Expect fewer items; poll more often.",
  ],
  "retention-raised": [I, "A rule's fixed count.max is higher: more items are kept.", "Nothing to change."],
  "omission-threshold-changed": [
    B,
    "The bound at which a field is omitted or present (e.g. rank content at limit 50) moved.",
    "Pick limit by the new threshold.",
  ],
  "problem-type-removed": [B, "A problem type of x-problem-types is gone.", "Stop matching on it."],
  "problem-type-changed": [B, "A problem type's status changed.", "Match the new status."],
  "problem-type-added": [I, "A new problem type.", "Handle it (or any unknown type) generically."],
  "support-period-shortened": [
    B,
    "x-versioning promises less: shorter support, no longer additive-only, or a different path prefix.",
    "Plan for the shorter support.",
  ],
  // Versioning across majors
  "v2-path-outside-prefix": [
    B,
    "A path of the new major's document is not under its prefix (/api/v2).",
    "(For the spec authors: move it under the prefix.)",
  ],
  "deprecation-announced-too-early": [
    B,
    "v1 announces its end (Deprecation/Sunset) sooner than 6 months after the successor's publication.",
    "(For the spec authors: announce later.)",
  ],
  "sunset-too-early": [
    B,
    "A Sunset date is less than 6 months after the successor's publication.",
    "(For the spec authors: move the sunset date.)",
  ],
  "successor-date-unknown": [
    W,
    "The successor's publication date is unknown, so the 6-month rule cannot be checked.",
    "(For the spec authors: state it.)",
  ],
  "operation-not-in-successor": [
    W,
    "A v1 operation has no counterpart in the new major.",
    "Keep calling v1 until its sunset, or use the replacement.",
  ],
  // Anything else
  "documentation-changed": [
    I,
    "Descriptions, summaries, examples, titles, tags or other documentation changed.",
    "Nothing to change.",
  ],
  "servers-changed": [
    W,
    "The servers list changed, not where requests go: a variable's default, or the servers after the first.",
    "Check the base URL you use.",
  ],
  "server-url-moved": [
    B,
    "The first server's URL template resolves elsewhere (another host, or a fixed path segment added): every request it covers, the document's or one path's or operation's, goes to another URL.",
    "Call the new URL.",
  ],
  "unclassified-change": [W, "A change no rule classifies: a reviewer should look.", "Read the change."],
} as const satisfies Record<string, readonly [Level, string, string]>;

export type RuleId = keyof typeof RULES;

export function ruleInfo(id: RuleId): RuleInfo {
  const [level, meaning, advice] = RULES[id];
  return { level, meaning, advice };
}

export const RULE_IDS = Object.keys(RULES) as RuleId[];
