/**
 * What every client rule reads besides the observation: the rules' parameters, the spec's
 * operations (which are key-protected), the keys the judge knows (to find one in a query string
 * and to mask it in reports), and the accounts when the observer knows them (the mock).
 */
import type { Spec } from "../../src/spec/spec.ts";
import type { Operation } from "../../src/spec/types.ts";
import { REDACTED } from "../passive/traffic.ts";
import type { ClientRules } from "./rules.ts";
import type { ClientObservation, EvidenceRequest } from "./types.ts";

/** An account the observer knows: its uid (as written in the query) and its key. */
export interface KnownAccount {
  uid: string;
  key: string;
}

/** Shown instead of a key: enough to tell two keys apart in a report, not enough to use one. */
export function maskKey(key: string): string {
  if (key === REDACTED) return key;
  return key.length <= 8 ? "…" : `${key.slice(0, 4)}…(${key.length} characters)`;
}

export class JudgeContext {
  /** Keys seen in the key header or given: a query value equal to one is a key in the query. */
  private readonly keys = new Set<string>();
  readonly accounts: KnownAccount[];

  constructor(
    readonly spec: Spec,
    readonly rules: ClientRules,
    accounts: KnownAccount[] = [],
  ) {
    this.accounts = accounts;
    for (const a of accounts) this.keys.add(a.key);
  }

  /** The key header's value, undefined when absent. */
  key(o: ClientObservation): string | undefined {
    return o.requestHeaders[this.rules.keyHeader];
  }

  rememberKey(o: ClientObservation): void {
    const key = this.key(o);
    if (key && key !== REDACTED) this.keys.add(key);
  }

  /** Counted by the limiter, so bound by a wait (x-rate-limit.counts_preflight). */
  counted(o: ClientObservation): boolean {
    return o.method.toUpperCase() !== "OPTIONS" || this.rules.preflightCounted;
  }

  /** A 4xx the contract refuses the request with (the rate limit's own status aside). */
  refused(o: ClientObservation): boolean {
    const { from, to } = this.rules.refused;
    return o.status >= from && o.status <= to && o.status !== this.rules.refusalStatus;
  }

  operation(o: ClientObservation): Operation | undefined {
    try {
      return this.spec.match(new URL(o.target, "http://client.invalid").pathname)?.operation;
    } catch {
      return undefined;
    }
  }

  /** The query parameters carrying a key: a key's name, or the value of a key the judge knows. */
  keysInQuery(o: ClientObservation): string[] {
    return [...this.query(o)].filter(([name, value]) => this.isKeyParam(name, value)).map(([name]) => name);
  }

  /** The target with every key in its query masked. */
  mask(target: string): string {
    const q = target.indexOf("?");
    if (q < 0) return target;
    const params = new URLSearchParams(target.slice(q + 1));
    if (![...params].some(([n, v]) => this.isKeyParam(n, v))) return target;
    const masked = [...params].map(([n, v]) => [n, this.isKeyParam(n, v) ? maskKey(v) : v]);
    return `${target.slice(0, q)}?${masked.map(([n, v]) => `${n}=${v}`).join("&")}`;
  }

  evidence(o: ClientObservation, note?: string): EvidenceRequest {
    return {
      method: o.method,
      target: this.mask(o.target),
      at: new Date(o.time * 1000).toISOString(),
      status: o.status,
      ...(note ? { note } : {}),
    };
  }

  private query(o: ClientObservation): URLSearchParams {
    const q = o.target.indexOf("?");
    return new URLSearchParams(q < 0 ? "" : o.target.slice(q + 1));
  }

  private isKeyParam(name: string, value: string): boolean {
    return (value !== "" && this.rules.keyQueryNames.includes(name.toLowerCase())) || this.keys.has(value);
  }
}

/** Seconds, one decimal: "0.4 s". */
export const seconds = (s: number) => `${Math.round(s * 10) / 10} s`;

/** A key of an account the judge knows, sent with another uid than that account's. */
export function foreignUid(ctx: JudgeContext, o: ClientObservation): boolean {
  const key = ctx.key(o);
  const owner = key === undefined ? undefined : ctx.accounts.find((a) => a.key === key);
  if (!owner || !ctx.operation(o)?.secured) return false;
  const uid = new URLSearchParams(o.target.split("?")[1] ?? "").get(ctx.rules.uidParameter);
  return uid !== null && uid !== owner.uid;
}
