import type { Prng } from "../reference-server/data/prng.ts";
import { acceptedCodings, COMPRESS_FROM_BYTES, ENCODERS, encodeBody } from "../src/http/compression.ts";
import type { CompressionPolicy } from "../src/spec/types.ts";
import type { VariationId } from "./variations-catalogue.ts";

export type EncodingVariationId = Extract<VariationId, "compressed" | "uncompressed">;

/** The codings of x-compression the request's Accept-Encoding accepts (q > 0, `*` included). */
export function offeredCodings(acceptEncoding: string | undefined, policy: CompressionPolicy): string[] {
  if (!acceptEncoding) return [];
  const weights = acceptedCodings(acceptEncoding);
  return policy.codings.filter((c) => ENCODERS[c] && (weights.get(c) ?? weights.get("*") ?? 0) > 0);
}

/**
 * The body as it travels: `compressed` with any offered coding (a small body too), `uncompressed`
 * as it is though a coding was offered and the layer would have used it, otherwise as the layer
 * always encodes it. Both variations
 * need an offered coding; without one the body goes as the layer sends it, unvaried.
 */
export async function encodeVaried(
  body: Buffer,
  acceptEncoding: string | undefined,
  policy: CompressionPolicy,
  choice: EncodingVariationId | undefined,
  random: Prng,
): Promise<{ body: Buffer; headers: Record<string, string>; applied?: EncodingVariationId }> {
  const offered = offeredCodings(acceptEncoding, policy);
  if (choice === undefined || offered.length === 0) return encodeBody(body, acceptEncoding, policy);
  // A body the layer would send as it is anyway is no variation: it is not labelled one.
  if (choice === "uncompressed" && body.length < COMPRESS_FROM_BYTES)
    return encodeBody(body, acceptEncoding, policy);
  if (choice === "uncompressed") return { body, headers: { vary: policy.vary }, applied: choice };
  const coding = random.pick(offered);
  const encode = ENCODERS[coding] as (b: Buffer) => Promise<Buffer>;
  return {
    body: await encode(body),
    headers: { "content-encoding": coding, vary: policy.vary },
    applied: choice,
  };
}
