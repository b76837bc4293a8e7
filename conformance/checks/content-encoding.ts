import { acceptedCodings, appliedCodings, varies } from "../../src/http/compression.ts";
import type { Check, Exchange, Finding } from "../types.ts";
import { isServerError } from "./guards.ts";

/** The codings a request offered (Accept-Encoding, q above 0); `*` offers any. */
function offered(exchange: Exchange): Set<string> {
  const header = Object.entries(exchange.request.headers).find(
    ([k]) => k.toLowerCase() === "accept-encoding",
  );
  return new Set([...acceptedCodings(header?.[1])].filter(([, q]) => q > 0).map(([name]) => name));
}

/** An answer of the API's to a GET (a transport failure other than a body that does not decode is answers-complete's). */
const judged = (e: Exchange) =>
  e.request.method === "GET" &&
  e.operation !== undefined &&
  (!e.failure || e.failure.kind === "undecodable") &&
  !isServerError(e.status);

/**
 * What real clients meet when they offer codings (x-compression): an answer uses only a coding
 * the request offered (none when it offered none), says Vary: Accept-Encoding when compressed,
 * and decodes once to the body. Half of the suite's requests offer codings (as browsers and fetch
 * do), half do not (as curl and scripts), so both paths are judged.
 */
export const contentEncoding: Check = {
  name: "content-encoding",
  title: "Compressed answer broken",
  verifies:
    "An answer uses only a content coding the request offered (none without Accept-Encoding), carries Vary: Accept-Encoding when compressed, and decodes once to the documented body.",
  source: "x-compression",
  severity: "high",
  judge(ctx, exchange) {
    if (!judged(exchange)) return null;
    const findings: Finding[] = [];
    const codings = appliedCodings(exchange.headers["content-encoding"]);
    const offers = offered(exchange);
    const unasked = codings.filter((c) => !offers.has(c) && !offers.has("*"));
    if (unasked.length > 0) {
      findings.push({
        code: "content-encoding/not-offered",
        title: `${exchange.status} answer compressed with ${unasked.join(", ")}, which the request did not offer${offers.size ? ` (Accept-Encoding: ${[...offers].join(", ")})` : " (no Accept-Encoding: curl and scripts get bytes they cannot read)"}`,
        received: exchange.headers["content-encoding"],
        documented: offers.size ? [...offers] : "identity",
      });
    }
    if (exchange.failure?.kind === "undecodable") {
      findings.push({
        code: "content-encoding/undecodable",
        title: `${exchange.status} answer does not decode: ${exchange.failure.message}`,
        received: exchange.headers["content-encoding"] ?? null,
        documented: "a body that decodes once to the documented answer",
      });
    }
    if (codings.length > 0 && !varies(exchange.headers.vary, ctx.spec.compression.vary)) {
      findings.push({
        code: "content-encoding/no-vary",
        title: `${exchange.status} answer is compressed (${codings.join(", ")}) without Vary: ${ctx.spec.compression.vary}: a cache may give it to a client that cannot decode it`,
        received: exchange.headers.vary ?? null,
        documented: ctx.spec.compression.vary,
      });
    }
    return findings;
  },
  // A compressed answer is judged on all three counts; an identity request on the first only.
  informative: (_ctx, exchange) =>
    judged(exchange) &&
    (appliedCodings(exchange.headers["content-encoding"]).length > 0
      ? "compressed"
      : offered(exchange).size === 0
        ? "identity"
        : false),
  evidenceKinds: {
    compressed: "no answer came compressed: decoding and Vary were not judged",
    identity: "no request went without Accept-Encoding",
  },
};
