import { loadSpec, specFromDocument } from "../../src/spec/load.ts";
import { frozenReleases } from "../../src/spec/release.ts";
import { type Spec, withRateLimit } from "../../src/spec/spec.ts";

/**
 * What a run judges against, active or passive: the spec (with the target's declared limit, when
 * `--rate` gives one, its manifest included) and every frozen release (the versioning check).
 */
export async function judgedSpecs(
  specPath?: string,
  rate?: { limit: number; windowSeconds: number },
): Promise<{ spec: Spec; releases: { version: string; spec: Spec }[] }> {
  const loaded = await loadSpec(specPath);
  const spec = rate ? withRateLimit(loaded, rate) : loaded;
  const releases = await Promise.all(
    (await frozenReleases()).map(async (r) => ({
      version: r.version,
      spec: await specFromDocument(r.raw, r.path),
    })),
  );
  return { spec, releases };
}
