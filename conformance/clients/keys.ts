/**
 * Where a client's key travels: client-key-in-header (never in the query string),
 * client-no-key-to-public (only to the key-protected operations) and client-one-account-per-key
 * (a personal stream asked only with the key's own uid). Keys are compared, never reported.
 */
import { REDACTED } from "../passive/traffic.ts";
import { foreignUid, type JudgeContext, maskKey } from "./context.ts";
import { type ClientFinding, type ClientObservation, EVIDENCE_CAP } from "./types.ts";

/** Keys and uids per key kept per client: a client probing accounts is shown by the first ones. */
const KEPT_KEYS = 50;
const KEPT_UIDS = 20;

interface Seen {
  count: number;
  first: ClientObservation[];
}

const seen = (): Seen => ({ count: 0, first: [] });
function add(s: Seen, o: ClientObservation): void {
  s.count++;
  if (s.first.length < EVIDENCE_CAP) s.first.push(o);
}

export class KeysTracker {
  private readonly inQuery = seen();
  private readonly toPublic = seen();
  /** key → uid → its first request. */
  private readonly uids = new Map<string, Map<string, ClientObservation>>();
  private readonly foreign = seen();
  /** A recording hid the keys: which uid a key belongs to cannot be told. */
  redacted = false;

  observe(o: ClientObservation, ctx: JudgeContext, keysInQuery: string[]): void {
    if (keysInQuery.length > 0) add(this.inQuery, o);
    const key = ctx.key(o);
    const operation = ctx.operation(o);
    if (key === undefined || !operation) return;
    if (!operation.secured) {
      add(this.toPublic, o);
      return;
    }
    if (key === REDACTED) {
      this.redacted = true;
      return;
    }
    const uid = new URLSearchParams(o.target.split("?")[1] ?? "").get(ctx.rules.uidParameter);
    if (uid === null) return;
    if (foreignUid(ctx, o)) add(this.foreign, o);
    let uids = this.uids.get(key);
    if (!uids && this.uids.size < KEPT_KEYS) {
      uids = new Map();
      this.uids.set(key, uids);
    }
    if (uids && !uids.has(uid) && uids.size < KEPT_UIDS) uids.set(uid, o);
  }

  findings(ctx: JudgeContext): ClientFinding[] {
    const out: ClientFinding[] = [];
    const q = this.inQuery.first[0];
    if (q)
      out.push({
        rule: "client-key-in-header",
        message: `sent its key in the query string (${ctx.keysInQuery(q).join(", ")}=${maskKey(queryValue(ctx, q))}) ${this.inQuery.count} time${this.inQuery.count === 1 ? "" : "s"}: it is written to logs and cache keys on the way`,
        count: this.inQuery.count,
        evidence: this.inQuery.first.map((o) => ctx.evidence(o)),
      });
    const p = this.toPublic.first[0];
    if (p)
      out.push({
        rule: "client-no-key-to-public",
        message: `sent its key (${ctx.rules.keyHeader}: ${maskKey(ctx.key(p) ?? "")}) to an endpoint that needs none ${this.toPublic.count} time${this.toPublic.count === 1 ? "" : "s"}`,
        count: this.toPublic.count,
        evidence: this.toPublic.first.map((o) => ctx.evidence(o)),
      });
    out.push(...this.accountFindings(ctx));
    return out;
  }

  private accountFindings(ctx: JudgeContext): ClientFinding[] {
    const shared = [...this.uids.entries()].filter(([, uids]) => uids.size > 1);
    const evidence = [
      ...this.foreign.first.map((o) => ctx.evidence(o, "the uid of another account than the key's")),
      ...shared.flatMap(([key, uids]) =>
        [...uids.values()].map((o) => ctx.evidence(o, `key ${maskKey(key)}`)),
      ),
    ].slice(0, EVIDENCE_CAP);
    const first = shared[0];
    if (!first && this.foreign.count === 0) return [];
    const parts = [
      ...(first
        ? [
            `one key (${maskKey(first[0])}) sent with ${first[1].size} uids: ${[...first[1].keys()].join(", ")}`,
          ]
        : []),
      ...(this.foreign.count > 0
        ? [
            `${this.foreign.count} request${this.foreign.count === 1 ? "" : "s"} with a uid the key does not belong to`,
          ]
        : []),
    ];
    return [
      {
        rule: "client-one-account-per-key",
        message: `asked another account's stream: ${parts.join("; ")}`,
        count: this.foreign.count + shared.reduce((n, [, u]) => n + u.size - 1, 0),
        evidence,
      },
    ];
  }
}

function queryValue(ctx: JudgeContext, o: ClientObservation): string {
  const name = ctx.keysInQuery(o)[0] ?? "";
  return new URLSearchParams(o.target.split("?")[1] ?? "").get(name) ?? "";
}
