/**
 * Which API versions a deployment serves, as the ledger records them: v1's meta as the run saw it,
 * and one request to the meta of the version after the newest one known (`/api/v2/meta` until v2
 * is seen, then `/api/v3/meta`...). Served, or gone: 404/410, the connection refused, or a
 * redirect away from the version's path. Anything else (a 500, a 429) says nothing either way.
 */
import type { Spec } from "../../src/spec/spec.ts";
import { caseUrl } from "../http/client.ts";
import type { Exchange, RequestCase } from "../types.ts";
import type { VersionSighting } from "./record.ts";
import type { Ledger } from "./types.ts";

type Answer = Pick<Exchange, "status" | "headers" | "body" | "failure" | "url">;

/** A version's meta answer as a sighting; undefined when it says nothing about the version. */
export function sightingOf(answer: Answer, prefix: string): VersionSighting | undefined {
  if (answer.failure?.kind === "unreachable") return { gone: `unreachable: ${answer.failure.message}` };
  if (answer.status === 404 || answer.status === 410) return { gone: String(answer.status) };
  if (answer.status >= 300 && answer.status < 400) {
    const location = answer.headers.location;
    if (!location) return undefined;
    const to = new URL(location, answer.url);
    return to.pathname.includes(`${prefix}/`)
      ? undefined
      : { gone: `${answer.status} redirect to ${to.pathname}` };
  }
  if (answer.status >= 200 && answer.status < 300) {
    const release = (answer.body as { data?: { api_version?: unknown } } | undefined)?.data?.api_version;
    return { alive: true, ...(typeof release === "string" ? { release } : {}) };
  }
  return undefined;
}

const VERSIONED = /^(.*\/v)([0-9]+)$/;

/** The prefix of the version after one (`/api/v1` → `/api/v2`). */
export function nextPrefix(prefix: string): string | undefined {
  const m = VERSIONED.exec(prefix);
  return m ? `${m[1]}${Number(m[2]) + 1}` : undefined;
}

/** The version to probe: the one after the newest served one the ledger knows, else the spec's successor. */
export function prefixToProbe(ledger: Ledger, spec: Spec): string {
  const number = (p: string) => Number(VERSIONED.exec(p)?.[2] ?? 0);
  const served = Object.entries(ledger.versions)
    .filter(([, v]) => v.alive)
    .map(([p]) => p)
    .filter((p) => VERSIONED.test(p))
    .sort((a, b) => number(b) - number(a))[0];
  const successor = spec.versioning.successor_path_prefix;
  const next = served ? nextPrefix(served) : undefined;
  return next && number(next) > number(successor) ? next : successor;
}

/** The request of a version's meta, as the suite sends it. */
export function metaRequest(spec: Spec, prefix: string): RequestCase {
  const meta = spec.operations.find((o) => o.tags.includes("meta"));
  const suffix = meta ? meta.path.slice(spec.versioning.path_prefix.length) : "/meta";
  return { method: "GET", pathname: `${prefix}${suffix}`, query: [], headers: {}, label: "ledger:version" };
}

export const metaUrl = (baseUrl: string, spec: Spec, prefix: string) =>
  caseUrl(baseUrl, metaRequest(spec, prefix));
