import type { AlertFilter } from "../db/store.ts";
import { alertRecord } from "../http/records.ts";
import type { Answer, Handler, RouteContext, RouteInput } from "./context.ts";

function hits(ctx: RouteContext, input: RouteInput, filter: AlertFilter): Answer {
  const limit = input.parsed.values.limit as number;
  const account = input.account;
  if (!account) throw new Error("personal stream reached without an authenticated account");
  const data = ctx.store.alerts(filter, limit).map((row) => alertRecord(row, true));
  return { status: 200, body: { data, meta: { uid: account.uid, limit, count: data.length } } };
}

/** GET /api/v1/my/follow: alerts matching the account's followed words, newest first. */
export const getMyFollowHits: Handler = (ctx, input) =>
  hits(ctx, input, { anyWords: input.account?.followWords });

/** GET /api/v1/my/push: alerts the account's push rules select (its categories and words), newest first. */
export const getMyPushHits: Handler = (ctx, input) =>
  hits(ctx, input, { cateids: input.account?.pushCates, anyWords: input.account?.pushWords });
