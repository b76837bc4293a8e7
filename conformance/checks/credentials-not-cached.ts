import { wrongKeyFor } from "../arbitraries/requests.ts";
import { cacheEvidence } from "../http/cache-evidence.ts";
import {
  type Check,
  type Exchange,
  type Finding,
  operationName,
  type PlanContext,
  type PlannedGroup,
  type RequestCase,
} from "../types.ts";

const NAME = "credentials-not-cached";
const KEY = "x-api-key";

/** A uid that is not the account's (the credentials are checked on the uid as sent). */
const otherUid = (uid: string) => (/^[0-9]{1,8}$/.test(uid) ? String(Number(uid) + 1) : "999999998");

/**
 * For each key-protected operation: the owner's request first, then the same URL byte for byte
 * without the key and with a wrong key, then the owner's key for another uid, back to back. A
 * shared cache keyed on the URL (nginx's default key, most CDNs: X-API-Key is no credential to
 * them) answers the later ones from the owner's stored answer.
 */
function plan(ctx: PlanContext): PlannedGroup[] {
  const { account } = ctx;
  if (!account) return [];
  return ctx.spec.operations
    .filter((op) => op.secured)
    .flatMap((op) => {
      const owner = ctx.validCases(op.operationId).find((r) => r.credentials === "valid");
      if (!owner) return [];
      const { [KEY]: _key, ...keyless } = owner.headers;
      const variant = (label: string, changes: Partial<RequestCase>): RequestCase => ({
        ...owner,
        headers: keyless,
        credentials: "invalid",
        label: `${NAME} ${label}`,
        ...changes,
      });
      const requests = [
        { ...owner, label: `${NAME} the owner's request` },
        variant("the same URL without the key", {}),
        variant("the same URL with a wrong key", { headers: { ...keyless, [KEY]: wrongKeyFor(account) } }),
        variant("the owner's key for another uid", {
          headers: owner.headers,
          query: owner.query.map(([k, v]): [string, string] => [k, k === "uid" ? otherUid(v) : v]),
        }),
      ];
      return [{ check: NAME, kind: "set" as const, requests, label: `${op.operationId}: the owner first` }];
    });
}

/** How a later request differs from the owner's (read from the requests: traffic has no labels of ours). */
function variantOf(owner: Exchange, later: Exchange): string {
  const uid = (e: Exchange) => e.request.query.find(([k]) => k === "uid")?.[1];
  if (uid(later) !== uid(owner)) return `the owner's key for another uid (${uid(later) ?? "none"})`;
  const key = later.request.headers[KEY];
  if (key === undefined) return "the same URL without the key";
  return key === owner.request.headers[KEY]
    ? "the same URL with the owner's key"
    : "the same URL with a wrong key";
}

/** What says the later answer is the owner's, replayed: cache headers, the same body, Date, RateLimit-Remaining. */
function replayed(owner: Exchange, later: Exchange): string[] {
  const same = (name: string) =>
    owner.headers[name] !== undefined && owner.headers[name] === later.headers[name];
  return [
    ...cacheEvidence(later.headers),
    ...(later.text === owner.text ? ["the owner's body, byte for byte"] : []),
    ...(same("date") ? [`the owner's Date (${owner.headers.date})`] : []),
    // A fresh answer counts this request too: the same Remaining is the owner's, replayed.
    ...(same("ratelimit-remaining")
      ? [`the owner's RateLimit-Remaining (${owner.headers["ratelimit-remaining"]})`]
      : []),
  ];
}

export const credentialsNotCached: Check = {
  name: NAME,
  title: "A personal stream served without its key",
  verifies:
    "Right after the owner's request of a personal stream, the same URL without the key or with a wrong key, and the owner's key for another uid, are refused 401: no cache in front serves the account's stream to anyone.",
  source: 'x-caching (personal: private, no-store); seed Authentication 2; DESIGN "Personal streams"',
  severity: "critical",
  needsAccount: true,
  plan,
  judgeGroup(ctx, group) {
    const answered = group.exchanges.filter((e) => !e.failure && e.status !== ctx.spec.rateLimit.status);
    const owner = answered.find((e) => e.request.credentials === "valid");
    if (!owner || owner.status < 200 || owner.status >= 300)
      return {
        findings: [],
        informative: false,
        inconclusive: `the owner's request was ${owner ? `answered ${owner.status}` : "not answered"}: nothing a cache could replay`,
      };
    const later = answered.filter((e) => e !== owner);
    const findings: { finding: Finding; exchange: Exchange }[] = later
      .filter((e) => e.status >= 200 && e.status < 300)
      .map((e) => {
        const evidence = replayed(owner, e);
        const what = variantOf(owner, e);
        return {
          exchange: e,
          finding: {
            code: NAME,
            title: `${operationName(e)}: ${what} was answered ${e.status} right after the owner's request: the account's stream reached a client without its key${evidence.length ? ` (likely a shared cache keyed on the URL: ${evidence.join("; ")})` : ""}`,
            received: { status: e.status, evidence },
            documented: "401 (x-caching personal: private, no-store)",
          },
        };
      });
    return { findings, informative: later.length > 0 };
  },
};
