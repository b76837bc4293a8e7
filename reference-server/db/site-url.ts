/**
 * Alert URLs are stored without the site's own prefix: nearly every alert's `url` is a page of
 * the site (generated ones all, imported ones resolved against it), and the prefix is 24 bytes
 * of every row (24 MB at a million alerts). The column `site_url` holds the encoding, and `url`
 * is a virtual column decoding it, so every read of `url` is unchanged. The encoding is
 * one-to-one whatever the text: "\x01" + the rest for a URL with the prefix, "\x02" + the
 * URL for one starting with either marker, the URL itself otherwise.
 */
export const SITE_PREFIX = "https://new.xianbao.fun/";

export function encodeUrl(url: string): string {
  if (url.startsWith(SITE_PREFIX)) return `\u0001${url.slice(SITE_PREFIX.length)}`;
  return url.startsWith("\u0001") || url.startsWith("\u0002") ? `\u0002${url}` : url;
}

/** encodeUrl in SQL, of the column `col` (schema migration 5). */
export function encodeUrlSql(col: string): string {
  return `CASE WHEN substr(${col}, 1, ${SITE_PREFIX.length}) = '${SITE_PREFIX}' THEN char(1) || substr(${col}, ${SITE_PREFIX.length + 1})
    WHEN substr(${col}, 1, 1) IN (char(1), char(2)) THEN char(2) || ${col} ELSE ${col} END`;
}

/** The stored URL decoded, in SQL: the virtual column `url`. */
export const DECODED_URL_SQL = `CASE substr(site_url, 1, 1) WHEN char(1) THEN '${SITE_PREFIX}' || substr(site_url, 2)
  WHEN char(2) THEN substr(site_url, 2) ELSE site_url END`;
