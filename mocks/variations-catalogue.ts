import type { Spec } from "../src/spec/spec.ts";

/**
 * The variations `dealkit mock --variations SEED` may apply to an answer: the one table of their
 * ids (sent in `X-Dealkit-Variations`, read by the judge of clients), what each does, how often
 * it is drawn, and the fact of the spec that allows it. A variation whose fact does not hold in
 * the spec the mock serves is never drawn: the spec decides what v1 lets an answer do.
 */
export interface Variation {
  id: VariationId;
  /** What the mock does to the answer (mocks/README.md "Variations" repeats this). */
  does: string;
  /** Where the spec allows it. */
  allowedBy: string;
  allowed(spec: Spec): boolean;
  /** Chance that one answer draws it (each answer draws every variation once, in table order). */
  chance: number;
}

export type VariationId =
  | "added-fields"
  | "optional-absent"
  | "content-omitted"
  | "keys-shuffled"
  | "compressed"
  | "uncompressed"
  | "rate-limited";

/** The field rank omits at `limit` <= 50 (rank-content-omitted); elsewhere optional in Alert and ZdmItem. */
export const CONTENT_FIELD = "content";

export const VARIATIONS: readonly Variation[] = [
  {
    id: "added-fields",
    does: "adds a field to every object of a 200 JSON body (data items, meta, nested objects), named like a future v1 field and named nowhere in the spec",
    allowedBy: "x-versioning.additive_only (fields are added within v1; clients ignore unknown fields)",
    allowed: (spec) => spec.versioning.additive_only,
    chance: 0.4,
  },
  {
    id: "optional-absent",
    does: "drops some properties the schema does not list in `required` (content aside), unless a rule holding for the request reads them",
    allowedBy: "components.schemas (a property outside `required` may be absent)",
    allowed: () => true,
    chance: 0.4,
  },
  {
    id: "content-omitted",
    does: "drops `content` from every record where the schema makes it optional and no rule holding for the request reads it (rank at limit > 50 and a search by q keep it)",
    allowedBy: "Alert and ZdmItem `required` (without content); x-conformance rank-content-omitted",
    allowed: (spec) =>
      spec.rules().some(({ rule }) => rule.then.each?.absent?.includes(CONTENT_FIELD) === true),
    chance: 0.3,
  },
  {
    id: "keys-shuffled",
    does: "reorders the keys of every object of a 200 JSON body",
    allowedBy: "application/json (RFC 8259 §4: an object is an unordered collection)",
    allowed: () => true,
    chance: 0.5,
  },
  {
    id: "compressed",
    does: "compresses the answer, small ones too, with one coding the request's Accept-Encoding offers (any of them, not only the preferred)",
    allowedBy: "x-compression.codings",
    allowed: (spec) => spec.compression.codings.length > 0,
    chance: 0.25,
  },
  {
    id: "uncompressed",
    does: "sends the body as it is although the request offered a coding and the body is large enough to be compressed (drawn only when `compressed` was not)",
    allowedBy: "x-compression.policy (compressing is optional)",
    allowed: () => true,
    chance: 0.25,
  },
  {
    id: "rate-limited",
    does: "answers the spec's 429 with Retry-After N (1 to 3 s) and RateLimit-Remaining 0, RateLimit-Reset N, then refuses that client IP until N seconds have passed and serves its next request after",
    allowedBy: "x-rate-limit (scope client-ip: other clients behind the same address spend the same budget)",
    allowed: (spec) => spec.rateLimit.status === 429,
    chance: 0.04,
  },
];

/** The header every answer of a mock with variations carries: the ids applied, comma-separated. */
export const VARIATIONS_HEADER = "X-Dealkit-Variations";

/** Longest wait a drawn refusal asks, in seconds: short enough for a client's test suite. */
export const MAX_REFUSAL_SECONDS = 3;
