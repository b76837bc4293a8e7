/**
 * Pairs the media types of two `content` maps. `application/json` and `application/json;
 * charset=utf-8` are one media type with a parameter stated (RFC 9110 §8.3.1: the type and
 * subtype are the media type, parameters qualify it), so writing the charset is no removal.
 * They pair unless a parameter changes how the bytes decode: a charset that differs once the
 * default is applied (JSON is UTF-8, RFC 8259 §8.1) is another encoding, and stays a removal
 * and an addition.
 */
export interface MediaPairs {
  /** [base key, head key], the same key or the same type with other parameters. */
  pairs: [string, string][];
  removed: string[];
  added: string[];
}

export function pairMediaTypes(base: string[], head: string[]): MediaPairs {
  const pairs: [string, string][] = [];
  const freeHead = new Set(head);
  const removed: string[] = [];
  for (const b of base) {
    if (freeHead.has(b)) {
      pairs.push([b, b]);
      freeHead.delete(b);
    }
  }
  for (const b of base) {
    if (pairs.some(([x]) => x === b)) continue;
    const h = [...freeHead].find((k) => sameType(b, k));
    if (h === undefined) removed.push(b);
    else {
      pairs.push([b, h]);
      freeHead.delete(h);
    }
  }
  return { pairs, removed, added: [...freeHead] };
}

interface Parsed {
  essence: string;
  params: Map<string, string>;
}

function parse(key: string): Parsed {
  const [type = "", ...rest] = key.split(";");
  const params = new Map<string, string>();
  for (const p of rest) {
    const eq = p.indexOf("=");
    if (eq < 0) continue;
    const name = p.slice(0, eq).trim().toLowerCase();
    params.set(
      name,
      p
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, "$1"),
    );
  }
  return { essence: type.trim().toLowerCase(), params };
}

/** The charset a body of this type decodes with, or undefined when the type sets no default. */
function charset({ essence, params }: Parsed): string | undefined {
  const stated = params
    .get("charset")
    ?.toLowerCase()
    .replace(/^utf8$/, "utf-8");
  if (stated !== undefined) return stated;
  return essence === "application/json" || essence.endsWith("+json") ? "utf-8" : undefined;
}

/** The same media type, and no charset that decodes its bytes differently. */
function sameType(a: string, b: string): boolean {
  const pa = parse(a);
  const pb = parse(b);
  if (pa.essence !== pb.essence) return false;
  const ca = charset(pa);
  const cb = charset(pb);
  return ca === undefined || cb === undefined || ca === cb;
}
