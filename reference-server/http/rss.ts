import type { AlertRow } from "../data/records.ts";

/** XML 1.0 forbids most control characters even escaped; imported text may carry them. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters being removed
const INVALID_XML = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function escapeXml(text: string): string {
  return text
    .replace(INVALID_XML, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

export interface Channel {
  title: string;
  link: string;
  description: string;
}

/** An RSS 2.0 document of alerts; every text is escaped, dates are RFC 822 (GMT). */
export function renderRss(channel: Channel, items: AlertRow[]): string {
  const e = escapeXml;
  const body = items
    .map(
      (a) =>
        `<item><title>${e(a.title)}</title><link>${e(a.url)}</link><guid isPermaLink="true">${e(a.url)}</guid>` +
        `<pubDate>${new Date(a.shijianchuo * 1000).toUTCString()}</pubDate><category>${e(a.catename)}</category>` +
        `<description>${e(a.content)}</description></item>`,
    )
    .join("");
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel>` +
    `<title>${e(channel.title)}</title><link>${e(channel.link)}</link><description>${e(channel.description)}</description>` +
    `${body}</channel></rss>`
  );
}
