/**
 * `dealkit mock --variations SEED`: every answer may vary as v1 allows (variations-catalogue.ts),
 * and says which variations it carries in `X-Dealkit-Variations`.
 *
 * Determinism: the k-th request of each client (socket IP, as the rate limit counts clients)
 * draws its variations from (SEED, k) alone, so the same seed and the same sequence of requests
 * give the same variations; the bodies are the layer's answers to those requests (the fixture
 * data moves with the clock, as without variations). Refusals depend on time too: a request
 * sent before a drawn Retry-After has passed is refused, whatever it draws.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { Prng } from "../reference-server/data/prng.ts";
import { cacheControl } from "../src/http/caching.ts";
import { encodeBody } from "../src/http/compression.ts";
import { corsHeaders } from "../src/http/cors.ts";
import { rateLimited } from "../src/http/problems.ts";
import { readRequest } from "../src/spec/request.ts";
import type { Spec } from "../src/spec/spec.ts";
import type { Answer, AnswerStage, SentAnswer } from "./rule-layer.ts";
import { type BodyVariationId, varyBody } from "./variations-body.ts";
import {
  MAX_REFUSAL_SECONDS,
  VARIATIONS,
  VARIATIONS_HEADER,
  type Variation,
  type VariationId,
} from "./variations-catalogue.ts";
import { type EncodingVariationId, encodeVaried } from "./variations-encoding.ts";
import { DrawnRefusals } from "./variations-refusals.ts";

export interface VariationsOptions {
  spec: Spec;
  seed: string;
  /** Milliseconds since the epoch: the layer's clock, so refusals end when the limiter thinks. */
  now?: () => number;
}

/** The rule layer's last step with variations: draws, refuses or varies, encodes, labels. */
export function mockVariations(options: VariationsOptions): AnswerStage {
  const { spec, seed } = options;
  const now = options.now ?? Date.now;
  const enabled = VARIATIONS.filter((v) => v.allowed(spec));
  const refusals = new DrawnRefusals();
  const requestsOf = new Map<string, number>();

  return async (req, layer) => {
    // A preflight is never varied: the browser must get through to the answer that is.
    if (req.method === "OPTIONS") return labelled(await encoded(spec, req, await layer()), []);
    const ip = req.socket.remoteAddress ?? "unknown";
    const k = (requestsOf.get(ip) ?? 0) + 1;
    requestsOf.set(ip, k);
    const random = new Prng(streamSeed(seed, k));
    const drawn = draw(enabled, random);
    const waitSeconds = random.int(1, MAX_REFUSAL_SECONDS);
    const pathname = new URL(req.url ?? "/", "http://mock.invalid").pathname;

    const left = refusals.secondsLeft(ip, now());
    const mayRefuse = refusals.mayRefuse(ip);
    if (left !== undefined) return refused(spec, req, pathname, left);
    if (drawn.has("rate-limited") && mayRefuse) {
      refusals.refuse(ip, now(), waitSeconds);
      return refused(spec, req, pathname, waitSeconds);
    }
    const a = await layer();
    const body = variedBody(spec, req, a, drawn, random);
    const encoding: EncodingVariationId | undefined = drawn.has("compressed")
      ? "compressed"
      : drawn.has("uncompressed")
        ? "uncompressed"
        : undefined;
    const wire = await encodeVaried(
      Buffer.from(body.text),
      header(req, "accept-encoding"),
      spec.compression,
      encoding,
      random,
    );
    const sent = { ...a, headers: { ...a.headers, ...wire.headers }, body: wire.body };
    return labelled(sent, [...body.applied, ...(wire.applied ? [wire.applied] : [])]);
  };
}

/** Each variation drawn once, in table order; `uncompressed` only when `compressed` was not. */
function draw(enabled: readonly Variation[], random: Prng): Set<VariationId> {
  const drawn = new Set<VariationId>();
  for (const v of VARIATIONS) {
    const hit = random.chance(v.chance);
    if (!hit || !enabled.includes(v)) continue;
    if (v.id === "uncompressed" && drawn.has("compressed")) continue;
    drawn.add(v.id);
  }
  return drawn;
}

/** The PRNG seed of a client's k-th request: any string seed, hashed with k. */
function streamSeed(seed: string, k: number): number {
  return createHash("sha256").update(`${seed}\n${k}`).digest().readUInt32BE(0);
}

const BODY_VARIATIONS: readonly BodyVariationId[] = [
  "added-fields",
  "optional-absent",
  "content-omitted",
  "keys-shuffled",
];

/** A 200 JSON body of a documented schema, varied; every other body as the layer wrote it. */
function variedBody(
  spec: Spec,
  req: IncomingMessage,
  a: Answer,
  drawn: ReadonlySet<VariationId>,
  random: Prng,
): { text: string; applied: BodyVariationId[] } {
  const chosen = new Set(BODY_VARIATIONS.filter((id) => drawn.has(id)));
  const mediaType = (a.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const rawUrl = req.url ?? "/";
  const route = spec.match(new URL(rawUrl, "http://mock.invalid").pathname);
  if (a.status !== 200 || !route || chosen.size === 0 || !mediaType.includes("json"))
    return { text: a.body, applied: [] };
  const { operation, pathParams } = route;
  const schema = spec.responseSchema(operation.operationId, 200, mediaType);
  if (!schema) return { text: a.body, applied: [] };
  const rawQuery = rawUrl.includes("?") ? rawUrl.slice(rawUrl.indexOf("?") + 1) : "";
  const request = readRequest(spec, operation, rawQuery, pathParams);
  const varied = varyBody(JSON.parse(a.body), schema, { spec, operation, request, random, chosen });
  return { text: JSON.stringify(varied.body), applied: varied.applied };
}

/**
 * The spec's 429 for a drawn refusal: its problem body, Retry-After, and RateLimit-* headers
 * that agree (nothing remains until the wait is over), CORS and the 429's Cache-Control.
 */
function refused(spec: Spec, req: IncomingMessage, pathname: string, seconds: number): Promise<SentAnswer> {
  const body = rateLimited(spec, seconds);
  const a: Answer = {
    status: body.status,
    headers: {
      "content-type": "application/problem+json; charset=utf-8",
      "Retry-After": String(seconds),
      "RateLimit-Limit": String(spec.rateLimit.limit),
      "RateLimit-Remaining": "0",
      "RateLimit-Reset": String(seconds),
      ...corsHeaders(spec.cors),
      "cache-control": cacheControl(spec, spec.match(pathname)?.operation, body.status),
    },
    body: JSON.stringify(body),
  };
  return encoded(spec, req, a).then((sent) => labelled(sent, ["rate-limited"]));
}

async function encoded(spec: Spec, req: IncomingMessage, a: Answer): Promise<SentAnswer> {
  const wire = await encodeBody(Buffer.from(a.body), header(req, "accept-encoding"), spec.compression);
  return { ...a, headers: { ...a.headers, ...wire.headers }, body: wire.body };
}

/** Adds X-Dealkit-Variations (empty when none applied), readable by a page on another origin too. */
function labelled(a: SentAnswer, applied: readonly VariationId[]): SentAnswer {
  const ids = VARIATIONS.map((v) => v.id).filter((id) => applied.includes(id));
  const headers: Record<string, string> = { ...a.headers, [VARIATIONS_HEADER]: ids.join(",") };
  const expose = Object.keys(headers).find((h) => h.toLowerCase() === "access-control-expose-headers");
  if (expose) headers[expose] = `${headers[expose]}, ${VARIATIONS_HEADER}`;
  return { ...a, headers };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
