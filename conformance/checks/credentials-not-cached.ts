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

/** Who gave a personal stream to a client without its key, as the two answers show it. */
export type AnsweredBy = "cache" | "application" | "unknown";

/**
 * Who answered the later request, and the facts that show it. A cache replays the owner's answer:
 * a cache's own header (Age, X-Cache HIT), or the owner's Date, RateLimit-Remaining and body all
 * repeated. The application answers afresh: no cache header, and its own RateLimit-Remaining (a
 * fresh answer counts this request too), its own Date or another body. Neither shown: unknown.
 */
export function whoAnswered(owner: Exchange, later: Exchange): { by: AnsweredBy; evidence: string[] } {
  const header = (e: Exchange, name: string) => e.headers[name];
  const compare = (name: string, label: string) => {
    const mine = header(later, name);
    const theirs = header(owner, name);
    if (mine === undefined || theirs === undefined) return undefined;
    return mine === theirs
      ? { same: `the owner's ${label} (${theirs})` }
      : { own: `its own ${label} (${mine}; the owner's ${theirs})` };
  };
  const fromStorage = cacheEvidence(later.headers);
  const date = compare("date", "Date");
  const remaining = compare("ratelimit-remaining", "RateLimit-Remaining");
  const sameBody = later.text === owner.text;
  if (fromStorage.length > 0)
    return {
      by: "cache",
      evidence: [...fromStorage, ...(sameBody ? ["the owner's body, byte for byte"] : [])],
    };
  if (date?.same && remaining?.same && sameBody)
    return { by: "cache", evidence: [date.same, remaining.same, "the owner's body, byte for byte"] };
  const fresh = [
    ...(sameBody ? [] : ["a body other than the owner's"]),
    ...(date?.own ? [date.own] : []),
    // A fresh answer counts this request: Remaining moved, the API itself answered.
    ...(remaining?.own ? [`${remaining.own}: the API counted it`] : []),
  ];
  if (fresh.length > 0) return { by: "application", evidence: [...fresh, "no Age, X-Cache or Cache-Status"] };
  return {
    by: "unknown",
    evidence: [
      ...(sameBody ? ["the owner's body, byte for byte"] : []),
      ...(date?.same ? [date.same] : []),
      "no Age, X-Cache or Cache-Status",
      ...(remaining ? [] : ["no RateLimit-Remaining to tell a counted answer from a replayed one"]),
    ],
  };
}

const WHO: Record<AnsweredBy, string> = {
  cache: "a shared cache keyed on the URL replayed the owner's answer",
  application: "the API answered it itself, fresh: it does not check the key",
  unknown: "the answers do not tell a cache from the API",
};

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
        const { by, evidence } = whoAnswered(owner, e);
        const what = variantOf(owner, e);
        return {
          exchange: e,
          finding: {
            code: NAME,
            title: `${operationName(e)}: ${what} was answered ${e.status} right after the owner's request: the account's stream reached a client without its key (${WHO[by]}: ${evidence.join("; ")})`,
            received: { status: e.status, answeredBy: by, variant: what, evidence },
            documented: "401 (x-caching personal: private, no-store)",
          },
        };
      });
    return { findings, informative: later.length > 0 };
  },
};
