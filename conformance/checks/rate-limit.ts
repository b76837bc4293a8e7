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
 */
async function burst(ctx: ProbeContext) {
  const [first, second] = ctx.reserved;
  const { limit, windowSeconds } = ctx.rate;
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
  if (
    opening.status === ctx.spec.rateLimit.status ||
    (Number.isInteger(remaining) && remaining < limit - 1)
  ) {
    ctx.log(`rate limit: ${first ?? "the address"} is not fresh on the server; waiting ${windowSeconds} s`);
    await ctx.sleep(windowSeconds * 1000 + 1000);
    opening = await ctx.sendRaw(META, first);
  }
  ctx.log(`rate limit: ${limit} requests from ${first ?? "one address"}, then one more`);
  const served: Exchange[] = [opening];
  for (let i = 1; i < limit; i += 6) {
    const batch = Math.min(6, limit - i);
    served.push(...(await Promise.all(Array.from({ length: batch }, () => ctx.sendRaw(META, first)))));
  }
  const early = served.findIndex((e) => e.status === ctx.spec.rateLimit.status);
  if (early >= 0) {
    const e = served[early] as Exchange;
    fail(
      e,
      "refused-early",
      `request ${early + 1} of ${limit} within the window was refused`,
      e.status,
      `${limit} served`,
    );
  }
  const over = await ctx.sendRaw(META, first);
  let skipped: string | undefined;
  if (over.status !== ctx.spec.rateLimit.status) {
    fail(
      over,
      "not-enforced",
      `request ${limit + 1} within ${windowSeconds} s was not refused`,
      over.status,
      ctx.spec.rateLimit.status,
    );
    return { cases: 1, findings };
  }
  if (second !== undefined || first !== undefined) {
    const other = await ctx.sendRaw(META, second);
    if (other.status === ctx.spec.rateLimit.status) {
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
  if (ctx.skipSlow) {
    skipped = "--skip-slow: did not wait Retry-After to see the client served again";
  } else {
    const wait = waitSeconds(over, windowSeconds);
    ctx.log(`rate limit: refused as documented; waiting Retry-After ${wait} s`);
    await ctx.sleep(wait * 1000 + 300);
    const again = await ctx.sendRaw(META, first);
    if (again.status === ctx.spec.rateLimit.status) {
      fail(
        again,
        "not-served-after-wait",
        `still refused after waiting the ${wait} s the server asked for`,
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
    "60 requests per IP are served, the 61st within a minute gets 429, another IP is still served, and the first is served again after waiting Retry-After.",
  source: "x-rate-limit",
  severity: "high",
  phase: "last",
  probe: burst,
};
