import { describesPolicy } from "../runner/transport.ts";
import type { Check, Exchange, Finding, ProbeContext, RequestCase } from "../types.ts";

const META: RequestCase = {
  method: "GET",
  operationId: "getMeta",
  pathname: "/api/v1/meta",
  query: [],
  headers: {},
  label: "burst",
};

/** A CORS preflight of the same resource: not counted when the spec says counts_preflight: false. */
const PREFLIGHT: RequestCase = {
  method: "OPTIONS",
  pathname: "/api/v1/meta",
  query: [],
  headers: { "access-control-request-method": "GET" },
  label: "burst-preflight",
};
const PREFLIGHTS = 3;
/** TEST-NET-3 (RFC 5737): an address no real client has, sent by the client itself. */
const FORGED_CLIENT = "203.0.113.7";

/** Seconds the server asked us to wait: Retry-After, else RateLimit-Reset, else the window. */
function waitSeconds(exchange: Exchange, windowSeconds: number): number {
  for (const name of ["retry-after", "ratelimit-reset"]) {
    const v = Number(exchange.headers[name]);
    if (Number.isFinite(v) && v > 0) return Math.min(v, windowSeconds * 2);
  }
  return windowSeconds;
}

/**
 * The 429 contract, run last: from one fresh client IP, `limit` requests are served and the next
 * is refused with 429; another IP is still served (counting is per IP); after waiting what the
 * server asked for (Retry-After), the first IP is served again. Whether Retry-After itself is
 * present and well-formed is response-headers' finding; here it only has to be long enough.
 * Over the limit, one request to each operation must be refused too (applies_to: all-endpoints).
 * On the way, the counting rules of x-rate-limit: preflights sent before the burst must not use
 * up any of the `limit` requests; the request over the limit carries a forged X-Forwarded-For,
 * which must not open a fresh window; and `limit` refused requests sent halfway through the wait
 * must not be counted, or the client would still be refused when Retry-After says it is not.
 */
/** `count` requests from one address, six in flight at a time. */
async function sendMany(ctx: ProbeContext, request: RequestCase, count: number, address: string | undefined) {
  const out: Exchange[] = [];
  for (let i = 0; i < count; i += 6) {
    const batch = Math.min(6, count - i);
    out.push(...(await Promise.all(Array.from({ length: batch }, () => ctx.sendRaw(request, address)))));
  }
  return out;
}

async function burst(ctx: ProbeContext) {
  const [first, second] = ctx.reserved;
  const { limit, windowSeconds } = ctx.rate;
  const policy = ctx.spec.rateLimit;
  const findings: { finding: Finding; exchange: Exchange }[] = [];
  const fail = (exchange: Exchange, code: string, title: string, received: unknown, documented: unknown) =>
    findings.push({ exchange, finding: { code: `rate-limit/${code}`, title, received, documented } });
  await ctx.waitIdle(first);
  // The first request also asks the server whether this IP's window is really empty (an earlier
  // run may have used it): if RateLimit-Remaining says otherwise, wait the window out once.
  let opening = await ctx.sendRaw(META, first);
  const remaining = describesPolicy(opening, limit)
    ? Number(opening.headers["ratelimit-remaining"] ?? Number.NaN)
    : Number.NaN;
  if (opening.status === policy.status || (Number.isInteger(remaining) && remaining < limit - 1)) {
    ctx.log(`rate limit: ${first ?? "the address"} is not fresh on the server; waiting ${windowSeconds} s`);
    await ctx.sleep(windowSeconds * 1000 + 1000);
    opening = await ctx.sendRaw(META, first);
  }
  const preflights = policy.counts_preflight ? 0 : PREFLIGHTS;
  for (let i = 0; i < preflights; i++) await ctx.sendRaw(PREFLIGHT, first);
  ctx.log(
    `rate limit: ${limit} requests from ${first ?? "one address"} (after ${preflights} preflights), then one more`,
  );
  const served = [opening, ...(await sendMany(ctx, META, limit - 1, first))];
  const refused = served.filter((e) => e.status === policy.status);
  if (refused.length > 0) {
    const e = refused[0] as Exchange;
    if (preflights > 0 && refused.length === preflights) {
      fail(
        e,
        "counts-preflight",
        `the last ${preflights} of ${limit} requests were refused after ${preflights} preflights: preflights are counted`,
        `${limit - preflights} served`,
        `${limit} served (counts_preflight: false)`,
      );
    } else {
      fail(
        e,
        "refused-early",
        `request ${served.indexOf(e) + 1} of ${limit} within the window was refused`,
        e.status,
        `${limit} served`,
      );
    }
  }
  const forged = { ...META, headers: { "x-forwarded-for": FORGED_CLIENT } };
  let over = await ctx.sendRaw(forged, first);
  let skipped: string | undefined;
  if (over.status !== policy.status) {
    const plain = await ctx.sendRaw(META, first);
    if (plain.status !== policy.status) {
      fail(
        over,
        "not-enforced",
        `request ${limit + 1} within ${windowSeconds} s was not refused`,
        over.status,
        policy.status,
      );
      return { cases: 1, findings };
    }
    fail(
      over,
      "trusts-forwarded-for",
      `request ${limit + 1} was served because it carried X-Forwarded-For: ${FORGED_CLIENT} (the next, without it, was refused)`,
      over.status,
      `${policy.status}: ${policy.client_ip}`,
    );
    over = plain;
  }
  if (second !== undefined || first !== undefined) {
    const other = await ctx.sendRaw(META, second);
    if (other.status === policy.status) {
      fail(
        other,
        "per-ip",
        `another client IP (${second ?? "default"}) was refused too`,
        other.status,
        "served: counted per client IP",
      );
    }
  } else {
    skipped = "per-IP counting not tested: one source address (non-loopback target)";
  }
  // applies_to: all-endpoints: over the limit, every operation refuses, not only the one counted.
  for (const op of ctx.spec.operations) {
    const request = ctx.validCases(op.operationId)[0];
    if (!request) continue;
    const e = await ctx.sendRaw(request, first);
    if (e.status !== policy.status) {
      fail(
        e,
        "endpoint-not-limited",
        `${op.operationId} (${request.pathname}) answered ${e.status} while ${first ?? "the client"} was over the limit`,
        e.status,
        `${policy.status}: the limit applies to every endpoint`,
      );
    }
  }
  if (ctx.skipSlow) {
    skipped = "--skip-slow: did not wait Retry-After to see the client served again";
  } else {
    const wait = waitSeconds(over, windowSeconds);
    // Knocks halfway through the wait are still inside the window when it ends: counted, they
    // would keep the client out; not counted (counts_refused: false), they change nothing.
    const knocks = policy.counts_refused ? 0 : limit;
    ctx.log(
      `rate limit: refused as documented; waiting Retry-After ${wait} s (${knocks} refused knocks halfway)`,
    );
    await ctx.sleep((wait * 1000) / 2);
    await sendMany(ctx, META, knocks, first);
    await ctx.sleep((wait * 1000) / 2 + 300);
    const again = await ctx.sendRaw(META, first);
    if (again.status === policy.status) {
      fail(
        again,
        "not-served-after-wait",
        `still refused after waiting the ${wait} s the server asked for` +
          (knocks
            ? ` (${knocks} refused requests were sent halfway: refused requests must not be counted)`
            : ""),
        again.status,
        "served",
      );
    }
  }
  return { cases: 1, findings, ...(skipped ? { skipped } : {}) };
}

export const rateLimit: Check = {
  name: "rate-limit",
  title: "Rate limit contract broken",
  verifies:
    "60 requests per IP are served (preflights not counted), the 61st within a minute gets 429 even with a forged X-Forwarded-For, every other endpoint refuses it too, another IP is still served, and the first is served again after waiting Retry-After (refused requests not counted).",
  source: "x-rate-limit",
  severity: "high",
  phase: "last",
  probe: burst,
};
