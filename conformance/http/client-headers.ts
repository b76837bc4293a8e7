/** Browsers send Origin on every cross-origin call; so does the suite, so CORS is judged as a browser sees it. */
export const ORIGIN = "https://conformance.dealkit.example";

/**
 * Real clients offer content codings: every browser and fetch send Accept-Encoding, scripts and
 * curl without --compressed do not. The suite sends both, so that both paths of an answer are
 * judged (x-compression): about half of the requests offer the spec's codings, chosen by the
 * request itself and the seed, so the same request always goes the same way (a replay, a control
 * A′ sent again, the owner's request and its credential variants of the same URL).
 */
import type { Spec } from "../../src/spec/spec.ts";
import type { RequestCase } from "../types.ts";

/** The header value, as browsers write it: the spec's codings in its order. */
export const acceptEncoding = (spec: Spec) => spec.compression.codings.join(", ");

/** FNV-1a over the request line and the seed: an even split that does not depend on sending order. */
export function offersCodings(
  request: Pick<RequestCase, "method" | "pathname" | "query">,
  seed: number,
): boolean {
  const line = `${request.method} ${request.pathname}?${new URLSearchParams(request.query)} ${seed}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < line.length; i++) {
    hash ^= line.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return ((hash >>> 0) & 1) === 1;
}
