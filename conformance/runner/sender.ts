/**
 * Sends the plan's items and keeps what happened to each: the exchange of a step (or why it was
 * not sent: budget, --max-time, a failing endpoint, a target that refuses this client), the
 * exchanges of a group with its check's verdict. A "compare" group is sent back to back from one
 * address with its control repeated last; when the control moved (live data) it is sent once
 * more, and a second move is "inconclusive", never a failure.
 */
import type { Slot } from "../http/pacer.ts";
import { fillFromFirst } from "../rules/vary.ts";
import {
  type Check,
  type CheckContext,
  type Exchange,
  isCounted,
  type PlannedGroup,
  type RequestCase,
  type Verdict,
} from "../types.ts";
import type { RateDiagnosis } from "./diagnosis.ts";
import { releaseBody } from "./exchange.ts";
import type { Judge, JudgedFinding } from "./judge.ts";
import type { PlanStep } from "./plan.ts";
import type { RunEnd } from "./stop.ts";
import { NotSent, type SendOptions, type Transport } from "./transport.ts";

export type Item = { kind: "step"; step: PlanStep } | { kind: "group"; group: PlannedGroup };

/** GET requests an item may send (what the rate limit counts): a compare group may go twice. */
export function countedRequests(item: Item): number {
  if (item.kind === "step") return isCounted(item.step.request) ? 1 : 0;
  const gets = item.group.requests.filter(isCounted).length;
  return item.group.kind === "compare" ? 2 * (gets + 1) : gets;
}

export const itemOperation = (item: Item) =>
  item.kind === "step" ? item.step.request.operationId : item.group.requests[0]?.operationId;

export interface SentGroupRecord {
  group: PlannedGroup;
  exchanges: Exchange[];
  verdict?: Verdict;
}

export class Sender {
  readonly sent = new Map<PlanStep, Exchange>();
  readonly unsent = new Map<PlanStep, string>();
  readonly groups: SentGroupRecord[] = [];
  readonly unsentGroups = new Map<PlannedGroup, string>();
  /** Findings on plan steps, recorded after shrinking. */
  readonly pending: { judged: JudgedFinding; exchange: Exchange }[] = [];

  constructor(
    private readonly ctx: CheckContext,
    private readonly transport: Transport,
    private readonly judge: Judge,
    private readonly diagnosis: RateDiagnosis,
    private readonly checks: Map<string, Check>,
    private readonly budget: number,
    private readonly end: RunEnd,
  ) {}

  /** Why nothing more may be sent, if so. */
  blocked(operationId?: string): string | undefined {
    if (this.end.stopped) return this.end.reached();
    if (this.diagnosis.refusesClient) return this.diagnosis.refusesClient;
    if (this.transport.requests >= this.budget) return `the request budget (${this.budget}) was spent`;
    const over = this.end.reached();
    if (over) return over;
    return operationId ? this.transport.failing.get(operationId) : undefined;
  }

  /**
   * Sends one request and judges it (findings wait for shrinking when `pending`); its body is
   * released unless a group still needs it.
   */
  async request(
    request: RequestCase,
    how: SendOptions,
    pending = false,
    keep = false,
  ): Promise<Exchange | undefined> {
    const sent = await this.attempt(request, how, pending, keep);
    return typeof sent === "string" ? undefined : sent;
  }

  /** As `request`, saying why a request was not sent (the deadline passed while it waited for its slot...). */
  private async attempt(
    request: RequestCase,
    how: SendOptions,
    pending: boolean,
    keep: boolean,
  ): Promise<Exchange | string> {
    const why = this.blocked(request.operationId);
    if (why) return why;
    let exchange: Exchange;
    try {
      exchange = await this.transport.send(request, how);
    } catch (err) {
      if (err instanceof NotSent) return err.message;
      throw err;
    }
    for (const judged of this.judge.judge(exchange)) {
      if (pending) this.pending.push({ judged, exchange });
      else this.judge.record(judged.check, judged.finding, exchange);
    }
    if (!keep) releaseBody(exchange);
    return exchange;
  }

  async step(step: PlanStep, how: SendOptions): Promise<Exchange | undefined> {
    const why = this.blocked(step.request.operationId);
    if (why) {
      this.unsent.set(step, why);
      return undefined;
    }
    const sent = await this.attempt(step.request, how, true, false);
    if (typeof sent === "string") {
      this.unsent.set(step, sent);
      return undefined;
    }
    this.sent.set(step, sent);
    return sent;
  }

  /**
   * Sends a group (a compare group twice when its control moved) with the slots reserved for it;
   * returns every exchange sent.
   */
  async group(group: PlannedGroup, how: SendOptions, slots: Slot[] = []): Promise<Exchange[]> {
    const check = this.checks.get(group.check);
    const requests =
      group.kind === "compare" && group.requests[0] ? [...group.requests, group.requests[0]] : group.requests;
    const sent: Exchange[] = [];
    let record: SentGroupRecord = { group, exchanges: [] };
    for (let attempt = 0; attempt < 2; attempt++) {
      record = { group, exchanges: [] };
      for (const [i, planned] of requests.entries()) {
        const request =
          i === 0 || i === requests.length - 1 || !group.fromFirst
            ? planned
            : fillFromFirst(this.ctx.spec, group.fromFirst, planned, record.exchanges[0]);
        if (!request) continue;
        const why = this.blocked(request.operationId);
        if (why) {
          this.unsentGroups.set(group, why);
          for (const unused of slots) unused.cancel();
          return sent;
        }
        const slot = slots.shift();
        const e = await this.request(request, slot ? { ...how, slot } : how, false, true);
        if (e) record.exchanges.push(e);
        if (e) sent.push(e);
      }
      if (!check?.judgeGroup) break;
      const verdict = check.judgeGroup(this.ctx, { planned: group, exchanges: record.exchanges });
      // A group that judges part of its check here says which part it left (the report's note).
      record.verdict = group.partial
        ? { ...verdict, partial: group.partial, unjudged: [group.partial] }
        : verdict;
      if (!record.verdict.moved) break;
    }
    for (const unused of slots) unused.cancel();
    for (const e of sent) releaseBody(e);
    if (check && record.verdict) this.judge.verdict(check, record.verdict);
    this.groups.push(record);
    return sent;
  }

  async item(item: Item, how: SendOptions): Promise<Exchange[]> {
    if (item.kind === "group") return this.group(item.group, how);
    const e = await this.step(item.step, how);
    return e ? [e] : [];
  }
}
