import type { Handler } from "./context.ts";
import { getFeed } from "./feed.ts";
import { getLegacyRankFile } from "./legacy-rank.ts";
import { getMeta } from "./meta.ts";
import { getMyFollowHits, getMyPushHits } from "./personal.ts";
import { getRank } from "./rank.ts";
import { getRss } from "./rss.ts";
import { searchAlerts } from "./search.ts";
import { listActivities } from "./shenghuo.ts";

/** One handler per operationId of the spec; the app refuses to start if one is missing. */
export const handlers: Record<string, Handler> = {
  getMeta,
  getRank,
  getFeed,
  searchAlerts,
  listActivities,
  getRss,
  getMyFollowHits,
  getMyPushHits,
  getLegacyRankFile,
};
