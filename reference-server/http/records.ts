import type { ActivityRow, AlertRow, ZdmRow } from "../data/records.ts";

/**
 * Rows as the spec's records (the real site's field names). `price` is omitted, not null, when
 * an alert has none; `content` is omitted when the caller asks for the short form (rank <= 50).
 */
export function alertRecord(row: AlertRow, withContent: boolean): Record<string, unknown> {
  const record: Record<string, unknown> = {
    id: row.id,
    title: row.title,
    ...(withContent ? { content: row.content } : {}),
    datetime: row.datetime,
    shorttime: row.shorttime,
    shijianchuo: row.shijianchuo,
    cateid: row.cateid,
    catename: row.catename,
    comments: row.comments,
    louzhu: row.louzhu,
    louzhuregtime: row.louzhuregtime,
    url: row.url,
    yuanurl: row.yuanurl,
  };
  if (row.price !== null) record.price = row.price;
  record.tags = JSON.parse(row.tags) as string[];
  return record;
}

export function zdmRecord(row: ZdmRow): Record<string, unknown> {
  return { type: "smzdm", ...row };
}

export function activityRecord(row: ActivityRow): Record<string, unknown> {
  return { ...row };
}
