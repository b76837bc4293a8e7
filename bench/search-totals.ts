import BetterSqlite3 from "better-sqlite3";
import { foldLatin } from "../src/rules/words.ts";

/** A search path's filter as the spec defines it, read from the query string. */
interface Query {
  path: string;
  any: string[];
  none: string[];
  min?: number;
  max?: number;
}

function parse(path: string): Query {
  const p = new URLSearchParams(path.slice(path.indexOf("?") + 1));
  const words = (name: string) => (p.get(name) ?? "").split("|").filter(Boolean).map(foldLatin);
  const num = (name: string) => (p.has(name) ? Number(p.get(name)) : undefined);
  if (p.has("cate") && p.get("cate") !== "all") throw new Error(`brute force has no category: ${path}`);
  return { path, any: words("q"), none: words("kp"), min: num("mip"), max: num("mxp") };
}

export interface TotalsCheck {
  checked: number;
  /** Queries whose served total differs from the count, with both figures. */
  wrong: { path: string; served: number; counted: number }[];
  seconds: number;
}

/**
 * An independent check of search totals: every alert of the database file read once, each word
 * tested as a substring of the title or the content (the spec's matching; nothing of the
 * server's index is used), and each query's total counted from those tests.
 */
export function checkTotals(dbPath: string, served: { path: string; total: number }[]): TotalsCheck {
  const started = performance.now();
  const queries = served.map((s) => parse(s.path));
  const words = [...new Set(queries.flatMap((q) => [...q.any, ...q.none]))];
  const index = new Map(words.map((w, i) => [w, i]));
  const counts = new Array<number>(queries.length).fill(0);
  const has = new Uint8Array(words.length);
  const db = new BetterSqlite3(dbPath, { readonly: true });
  try {
    const rows = db
      .prepare<[], { title: string; content: string; price: number | null }>(
        "SELECT title, content, price FROM alerts",
      )
      .iterate();
    for (const row of rows) {
      const title = foldLatin(row.title);
      const content = foldLatin(row.content);
      for (let i = 0; i < words.length; i++) {
        const w = words[i] as string;
        has[i] = title.includes(w) || content.includes(w) ? 1 : 0;
      }
      for (let q = 0; q < queries.length; q++) {
        const { any, none, min, max } = queries[q] as Query;
        if (any.length && !any.some((w) => has[index.get(w) as number])) continue;
        if (none.some((w) => has[index.get(w) as number])) continue;
        if (min !== undefined && (row.price === null || row.price < min)) continue;
        if (max !== undefined && (row.price === null || row.price > max)) continue;
        counts[q] = (counts[q] as number) + 1;
      }
    }
  } finally {
    db.close();
  }
  const wrong = served
    .map((s, q) => ({ path: s.path, served: s.total, counted: counts[q] as number }))
    .filter((r) => r.served !== r.counted);
  return { checked: served.length, wrong, seconds: (performance.now() - started) / 1000 };
}
