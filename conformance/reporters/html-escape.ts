/**
 * The one way text reaches the HTML report. Everything a target sent (titles, bodies, headers,
 * URLs) and everything the suite wrote about it goes through `text`: made well-formed (a lone
 * surrogate becomes U+FFFD), capped (a 1 MB line would make a 1 MB report), then escaped for both
 * element content and quoted attribute values.
 */

/** Characters kept of one value; the rest is said as "… N more characters". */
export const DEFAULT_CAP = 2000;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes for element content and for a double- or single-quoted attribute value. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** At most `max` characters (a surrogate pair is not split), and how many more there were. */
export function capText(s: string, max = DEFAULT_CAP): string {
  const whole = s.replace(LONE_SURROGATE, "\uFFFD");
  if (whole.length <= max) return whole;
  // Do not cut between the halves of a pair: the cut half would be a lone surrogate again.
  const end = /[\uD800-\uDBFF]/.test(whole[max - 1] ?? "") ? max - 1 : max;
  return `${whole.slice(0, end)}… ${whole.length - end} more characters`;
}

/** Any value as escaped, capped text: strings as they are, the rest as indented JSON. */
export function text(value: unknown, max = DEFAULT_CAP): string {
  const s = typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? String(value));
  return escapeHtml(capText(s, max));
}
