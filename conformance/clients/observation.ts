/**
 * Observations from what the kit already carries: traffic (the proxy's, a HAR's, the kit's NDJSON)
 * and the mock's own exchanges. The problem type is read from a problem+json body when there is one.
 */
import type { Traffic } from "../passive/traffic.ts";
import type { ClientRules } from "./rules.ts";
import type { ClientObservation } from "./types.ts";
import { variationsOf } from "./variations.ts";

/** The client of a recording that names none (a browser's HAR): all its traffic is one client's. */
export const RECORDED_CLIENT = "recorded client";

/** The `type` of a problem+json body, undefined for any other body. */
export function problemTypeOf(headers: Record<string, string>, body: string | undefined): string | undefined {
  if (!body || !/problem\+json/i.test(headers["content-type"] ?? "")) return undefined;
  try {
    const type = (JSON.parse(body) as { type?: unknown }).type;
    return typeof type === "string" ? type : undefined;
  } catch {
    return undefined;
  }
}

/** Path and query below the API's base path; undefined for a URL elsewhere. */
export function targetOf(url: string, basePath = ""): string | undefined {
  let u: URL;
  try {
    u = new URL(url, "http://client.invalid");
  } catch {
    return undefined;
  }
  const base = basePath.replace(/\/+$/, "");
  if (base && u.pathname !== base && !u.pathname.startsWith(`${base}/`)) return undefined;
  return `${u.pathname.slice(base.length) || "/"}${u.search}`;
}

/** The observation of one exchange of traffic; undefined when it is not below the base path or got no answer. */
export function observationOfTraffic(
  traffic: Traffic,
  rules: ClientRules,
  basePath = "",
): ClientObservation | undefined {
  const target = targetOf(traffic.url, basePath);
  if (target === undefined || traffic.status === 0) return undefined;
  const userAgent = traffic.requestHeaders["user-agent"];
  const problemType = problemTypeOf(traffic.responseHeaders, traffic.body);
  return {
    time: traffic.startedAt,
    answeredAt: traffic.receivedAt || traffic.startedAt,
    client: traffic.client ?? RECORDED_CLIENT,
    ...(userAgent ? { userAgent } : {}),
    method: traffic.method.toUpperCase(),
    target,
    requestHeaders: traffic.requestHeaders,
    status: traffic.status,
    responseHeaders: traffic.responseHeaders,
    ...(problemType ? { problemType } : {}),
    variations: variationsOf(traffic.responseHeaders, rules.variationsHeader),
  };
}
