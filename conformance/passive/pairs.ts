/**
 * Cross-answer rules on traffic: the checks' own `judgeGroup`, fed with groups found in what
 * passed by instead of groups the suite sent.
 * - `uniformBody` (one identical 401 whatever the uid): every 401 of an operation is compared with
 *   the first one seen, whoever the client.
 * - `ignores` rules and x-relations need the data not to have moved between the answers: only a
 *   client's own A, B…, A′ sequence (A′ the same request as A, B a variant of A between them)
 *   is a group, exactly as the suite sends it; A′ differing from A is "inconclusive", never a
 *   failure.
 * - `head-as-get`: a client's HEAD of a URL it asked with GET just before is compared with that GET.
 * Memory is bounded by count, size and age (conformance/README.md, "Passive conformance:
 * memory"): a few recent answers per client and operation (a client's other calls, concurrent or
 * not, do not push A out), a cap on those lists and on the characters held, and nothing older
 * than the longest group a comparison accepts (traffic time, so a recording judges alike);
 * larger answers are not kept for pairing. The oldest go first, and every answer let go before
 * its time is counted by reason (`released`, in the report), so nothing is lost silently.
 */
import { isDeepStrictEqual } from "node:util";
import { get } from "../../src/rules/pointer.ts";
import type { Rule } from "../../src/rules/types.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { Operation } from "../../src/spec/types.ts";
import type { Check, CheckContext, Exchange, PlannedGroup, Verdict } from "../types.ts";
import { keyHeader } from "./traffic.ts";
import { isIgnoresPair, isRelationPair, sameRequest } from "./variation.ts";

/** The longest A … A′ a comparison accepts: the suite sends a group within seconds, paced within two rate windows. */
const MAX_GROUP_SECONDS = 120;

/** Personal-stream URLs whose owner's answer is kept for credentials-not-cached, and the longest kept (4 M characters at most). */
const OWNERS = { kept: 64, answerChars: 65_536 };

/**
 * Recent answers kept per client and operation, such lists kept, characters held in all, largest
 * answer kept, and the longest any is kept (seconds of traffic time: older ones can be no A).
 * A kept answer costs about 6 times its characters once parsed (its body as objects), so the
 * characters bound holds them to a few tens of MB (the soak in bench/README.md measures it).
 */
export const PAIRING_LIMITS = {
  perList: 8,
  lists: 512,
  chars: 4_000_000,
  answerChars: 1_000_000,
  seconds: MAX_GROUP_SECONDS,
};

/** Why an answer kept for comparisons was let go before it could complete one (report: `released`). */
export const RELEASED = {
  count: "answers kept for comparisons let go at the count bound (the least recently active client's first)",
  chars: "answers kept for comparisons let go at the characters bound",
  large: "answers too large to keep for comparisons",
  perList: "answers pushed out of their client's list by newer ones of the same operation",
  age: "answers older than the longest comparison (no loss: no group spans that long)",
  gets: "GETs kept for head-as-get let go at the count bound",
} as const;

interface Comparison {
  check: Check;
  op: Operation;
  kind: "relation" | "ignores";
  isPair(a: Exchange, b: Exchange): boolean;
  /** A′ is A's answer again, item for item (stricter than the check's own control: see `see`). */
  unmoved(a: Exchange, again: Exchange): boolean;
}

export interface GroupVerdict {
  check: Check;
  verdict: Verdict;
}

const planned = (check: string, label: string, kind: PlannedGroup["kind"]): PlannedGroup => ({
  check,
  kind,
  requests: [],
  label,
});

const MOVED: Verdict = {
  findings: [],
  informative: false,
  inconclusive: "data changed: the first request, sent again, got other items",
  moved: true,
};

const served = (e: Exchange) => !e.failure && e.status >= 200 && e.status < 300;

export class CrossAnswers {
  private readonly comparisons: Comparison[] = [];
  private readonly uniform: { check: Check; op: Operation; rule: Rule }[] = [];
  private readonly first401 = new Map<string, Exchange>();
  private readonly recent = new Map<string, Exchange[]>();
  private chars = 0;
  /** The latest served answer of each personal-stream URL to its owner (credentials-not-cached). */
  private readonly owners = new Map<string, Exchange>();
  private readonly credentials: Check | undefined;
  /** Each client's latest GET of a URL, without its body (head-as-get reads status and headers). */
  private readonly lastGet = new Map<string, Exchange>();
  private readonly headAsGet: Check | undefined;
  /** Traffic time of the latest exchange seen: what is older by PAIRING_LIMITS.seconds is let go. */
  private latest = 0;
  private readonly releasedBy = new Map<string, number>();

  constructor(
    private readonly ctx: CheckContext,
    checks: Check[],
  ) {
    const byName = new Map(checks.map((c) => [c.name, c]));
    this.credentials = byName.get("credentials-not-cached");
    this.headAsGet = byName.get("head-as-get");
    const spec: Spec = ctx.spec;
    for (const { operation: op, relation } of spec.relations()) {
      const check = byName.get(`relation:${relation.id}`);
      if (check?.judgeGroup)
        this.comparisons.push({
          check,
          op,
          kind: "relation",
          isPair: (a, b) => isRelationPair(spec, op, relation, a, b),
          unmoved: (a, again) =>
            isDeepStrictEqual(get(a.body, relation.at ?? "/data"), get(again.body, relation.at ?? "/data")),
        });
    }
    for (const { operation: op, rule } of spec.rules()) {
      const check = byName.get(`rule:${rule.id}`);
      if (!check?.judgeGroup) continue;
      const ignored = rule.then.ignores;
      if (ignored)
        this.comparisons.push({
          check,
          op,
          kind: "ignores",
          isPair: (a, b) => isIgnoresPair(ignored, a, b),
          // judgeIgnores compares whole bodies of A and A′ itself.
          unmoved: () => true,
        });
      if (rule.then.uniformBody) this.uniform.push({ check, op, rule });
    }
  }

  /** Answers let go, by reason (RELEASED). */
  released(): Record<string, number> {
    return Object.fromEntries(this.releasedBy);
  }

  /** Answers held for comparisons now (lists, personal-stream owners, GETs for head-as-get). */
  held(): { answers: number; chars: number; owners: number; gets: number } {
    let answers = 0;
    for (const ring of this.recent.values()) answers += ring.length;
    return { answers, chars: this.chars, owners: this.owners.size, gets: this.lastGet.size };
  }

  private release(reason: string, n = 1): void {
    if (n > 0) this.releasedBy.set(reason, (this.releasedBy.get(reason) ?? 0) + n);
  }

  /** The cross-answer verdicts an exchange completes (none for most). */
  see(exchange: Exchange, client = ""): GroupVerdict[] {
    if (exchange.sentAt > this.latest) {
      this.latest = exchange.sentAt;
      this.expire();
    }
    if (exchange.failure) return [];
    if (exchange.request.method === "HEAD") return this.headAfterGet(exchange, client);
    if (exchange.request.method !== "GET" || !exchange.operation) return [];
    this.rememberGet(exchange, client);
    const out = [...this.sameBody(exchange), ...this.afterOwner(exchange)];
    const key = `${client} ${exchange.operation.operationId}`;
    const ring = this.recent.get(key) ?? [];
    for (const c of this.comparisons) {
      if (c.op.operationId !== exchange.operation.operationId) continue;
      const group = this.groupEndingWith(c, ring, exchange);
      if (!group) continue;
      const label = `${c.check.name} from traffic`;
      for (const exchanges of group) {
        const [a, again] = [exchanges[0] as Exchange, exchanges.at(-1) as Exchange];
        // Traffic is not timed by us: an item re-dated between A and A′ (a clock tick on a
        // mock, a comment counted) moves the data as surely as a new item does.
        if (!c.unmoved(a, again)) {
          out.push({ check: c.check, verdict: MOVED });
          continue;
        }
        const verdict = c.check.judgeGroup?.(this.ctx, {
          planned: planned(c.check.name, label, "compare"),
          exchanges,
        });
        if (verdict) out.push({ check: c.check, verdict });
      }
    }
    this.remember(key, ring, exchange);
    return out;
  }

  /**
   * Lets go of what no comparison can use any more: answers received more than
   * PAIRING_LIMITS.seconds before the latest exchange was sent. Maps keep insertion order and
   * every list, owner and GET is re-inserted when touched, so the oldest come first.
   */
  private expire(): void {
    const before = this.latest - PAIRING_LIMITS.seconds;
    for (const [key, ring] of this.recent) {
      while (ring.length > 0 && (ring[0] as Exchange).receivedAt < before) {
        this.chars -= (ring.shift() as Exchange).text.length;
        this.release(RELEASED.age);
      }
      if (ring.length > 0) break;
      this.recent.delete(key);
    }
    for (const [url, owner] of this.owners) {
      if (owner.receivedAt >= before) break;
      this.owners.delete(url);
    }
    for (const [key, get] of this.lastGet) {
      if (get.receivedAt >= before) break;
      this.lastGet.delete(key);
    }
  }

  private rememberGet(exchange: Exchange, client: string): void {
    if (!this.headAsGet) return;
    const key = `${client} ${exchange.url}`;
    this.lastGet.delete(key);
    this.lastGet.set(key, { ...exchange, text: "", body: undefined });
    if (this.lastGet.size > PAIRING_LIMITS.lists) {
      this.lastGet.delete(this.lastGet.keys().next().value as string);
      this.release(RELEASED.gets);
    }
  }

  /** A HEAD right after the same client's GET of the same URL: judged as the suite's GET, HEAD pair. */
  private headAfterGet(head: Exchange, client: string): GroupVerdict[] {
    const check = this.headAsGet;
    const get = this.lastGet.get(`${client} ${head.url}`);
    if (
      !check?.judgeGroup ||
      !get ||
      head.sentAt < get.receivedAt ||
      head.sentAt - get.receivedAt > MAX_GROUP_SECONDS
    )
      return [];
    const verdict = check.judgeGroup(this.ctx, {
      planned: planned(check.name, `${check.name} from traffic`, "set"),
      exchanges: [get, head],
    });
    return [{ check, verdict }];
  }

  /** 401s of an operation with an identical-body rule, each compared with the first one seen. */
  private sameBody(exchange: Exchange): GroupVerdict[] {
    if (exchange.status !== 401) return [];
    const out: GroupVerdict[] = [];
    for (const { check, op, rule } of this.uniform) {
      if (op.operationId !== exchange.operation?.operationId) continue;
      const labelled = {
        ...exchange,
        request: { ...exchange.request, label: `rule:${rule.id} ${this.variant(exchange)}` },
      };
      const first = this.first401.get(check.name);
      if (!first) {
        this.first401.set(check.name, labelled);
        continue;
      }
      const verdict = check.judgeGroup?.(this.ctx, {
        planned: planned(check.name, `${rule.id} from traffic`, "set"),
        exchanges: [first, labelled],
      });
      if (verdict) out.push({ check, verdict });
    }
    return out;
  }

  /**
   * A personal stream's URL asked without a key after its owner was served (any client: a shared
   * cache serves everyone): judged as the suite's owner-first group. Owners' answers are kept a
   * while, bounded in count and size.
   */
  private afterOwner(exchange: Exchange): GroupVerdict[] {
    const check = this.credentials;
    if (!check?.judgeGroup || !exchange.operation?.secured) return [];
    if (exchange.request.credentials === "valid") {
      if (!served(exchange)) return [];
      if (exchange.text.length > OWNERS.answerChars) {
        this.release(RELEASED.large);
        return [];
      }
      this.owners.delete(exchange.url);
      this.owners.set(exchange.url, exchange);
      if (this.owners.size > OWNERS.kept) {
        this.owners.delete(this.owners.keys().next().value as string);
        this.release(RELEASED.count);
      }
      return [];
    }
    const owner = this.owners.get(exchange.url);
    if (
      !owner ||
      exchange.sentAt < owner.receivedAt ||
      exchange.sentAt - owner.receivedAt > MAX_GROUP_SECONDS
    )
      return [];
    const verdict = check.judgeGroup(this.ctx, {
      planned: planned(check.name, `${check.name} from traffic`, "set"),
      exchanges: [owner, exchange],
    });
    return [{ check, verdict }];
  }

  /** How a 401 request's credentials looked (the key itself is never shown). */
  private variant(e: Exchange): string {
    const uid = e.request.query.find(([k]) => k === "uid")?.[1];
    const key = e.request.headers[keyHeader(this.ctx.spec)] !== undefined ? "a key" : "no key";
    return `${key}, ${uid ? `uid ${uid}` : "no uid"}`;
  }

  /**
   * The groups `x` closes for a comparison: the latest earlier answer A to the same request with
   * variants B of A between them, back to back (B sent after A's answer came, A′ after B's:
   * requests in flight together are no sequence). A relation makes one group per B; ignores one
   * group of all.
   */
  private groupEndingWith(c: Comparison, ring: Exchange[], x: Exchange): Exchange[][] | undefined {
    for (let i = ring.length - 1; i >= 0; i--) {
      const a = ring[i] as Exchange;
      if (!sameRequest(a, x) || !served(a)) continue;
      // Back to back only: answers far apart in time compare moved data, not a relation.
      if (x.sentAt - a.receivedAt > MAX_GROUP_SECONDS) return undefined;
      const between = ring
        .slice(i + 1)
        .filter(
          (b) => b.sentAt >= a.receivedAt && x.sentAt >= b.receivedAt && !sameRequest(a, b) && c.isPair(a, b),
        );
      if (between.length > 0)
        return c.kind === "relation" ? between.map((b) => [a, b, x]) : [[a, ...between, x]];
    }
    return undefined;
  }

  private remember(key: string, ring: Exchange[], exchange: Exchange): void {
    if (exchange.text.length > PAIRING_LIMITS.answerChars) {
      this.release(RELEASED.large);
      return;
    }
    // Most recently used lists last: the first entry is the one to drop.
    this.recent.delete(key);
    this.recent.set(key, ring);
    ring.push(exchange);
    this.chars += exchange.text.length;
    // A list's own oldest answer goes first: a client's later A, B, A′ needs only its recent ones.
    if (ring.length > PAIRING_LIMITS.perList) {
      this.chars -= ring.shift()?.text.length ?? 0;
      this.release(RELEASED.perList);
    }
    while (this.recent.size > PAIRING_LIMITS.lists || this.chars > PAIRING_LIMITS.chars) {
      const why = this.recent.size > PAIRING_LIMITS.lists ? RELEASED.count : RELEASED.chars;
      const [oldest, dropped] = this.recent.entries().next().value as [string, Exchange[]];
      this.recent.delete(oldest);
      for (const e of dropped) this.chars -= e.text.length;
      this.release(why, dropped.length);
    }
  }
}
