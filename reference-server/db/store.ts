import type { Database, Statement } from "better-sqlite3";
import type { ActivityRow, AlertRow, ZdmRow } from "../data/records.ts";
import { anyWordExpression } from "./grams.ts";

/** What an alert query may filter on; every field is optional and they combine with AND. */
export interface AlertFilter {
  /** Keep alerts whose title or content contains any of these words. */
  anyWords?: string[];
  /** Drop alerts whose title or content contains any of these words. */
  noWords?: string[];
  minPrice?: number;
  maxPrice?: number;
  cateid?: string;
  cateids?: string[];
  tag?: string;
}

const NEWEST_FIRST = "ORDER BY a.shijianchuo DESC, a.id DESC";

/**
 * Every read the routes need, as prepared, parameterised statements. Statements whose WHERE
 * depends on which filters are given are built from fixed fragments and cached per shape.
 */
export class Store {
  private readonly shapes = new Map<string, { page: Statement; count: Statement }>();
  private readonly feedAll: Statement<[number], AlertRow>;
  private readonly feedCate: Statement<[string, number], AlertRow>;
  private readonly zdm: Statement<[number], ZdmRow>;
  private readonly rankRows: Statement<[number, number, number], AlertRow>;
  private readonly activityPage: Statement;
  private readonly activityCount: Statement;
  private readonly activityCates: Statement<[], { id: string; name: string; count: number }>;

  constructor(readonly db: Database) {
    this.feedAll = db.prepare(`SELECT * FROM alerts a ${NEWEST_FIRST} LIMIT ?`);
    this.feedCate = db.prepare(`SELECT * FROM alerts a WHERE a.cateid = ? ${NEWEST_FIRST} LIMIT ?`);
    this.zdm = db.prepare("SELECT * FROM zdm_items ORDER BY posttime DESC, id DESC LIMIT ?");
    this.rankRows = db.prepare(
      `SELECT * FROM alerts a WHERE a.shijianchuo BETWEEN ? AND ?
       ORDER BY a.comments DESC, a.shijianchuo DESC, a.id DESC LIMIT ?`,
    );
    // SQLite's lower() folds A-Z only: exactly the spec's substring-ci-latin matching.
    const activityWhere = `WHERE (@cate IS NULL OR a.cate = @cate)
      AND (@words IS NULL OR EXISTS (SELECT 1 FROM json_each(@words) w
        WHERE instr(lower(a.name), lower(w.value)) > 0 OR instr(lower(a.desc), lower(w.value)) > 0))`;
    this.activityPage = db.prepare(
      `SELECT * FROM activities a ${activityWhere} ORDER BY a.id DESC LIMIT @limit OFFSET @offset`,
    );
    this.activityCount = db.prepare(`SELECT count(*) AS n FROM activities a ${activityWhere}`);
    this.activityCates = db.prepare(
      `SELECT c.id, c.name, count(a.id) AS count FROM activity_categories c
       LEFT JOIN activities a ON a.cate = c.id GROUP BY c.id ORDER BY c.rowid`,
    );
  }

  latest(cateid: string | undefined, limit: number): AlertRow[] {
    return cateid === undefined ? this.feedAll.all(limit) : this.feedCate.all(cateid, limit);
  }

  latestZdm(limit: number): ZdmRow[] {
    return this.zdm.all(limit);
  }

  /** Alerts published in [from, to], by comments then newest. */
  rank(from: number, to: number, limit: number): AlertRow[] {
    return this.rankRows.all(from, to, limit);
  }

  /** One page of matching alerts, newest first. */
  alerts(filter: AlertFilter, limit: number, offset = 0): AlertRow[] {
    const { statements, params } = this.shape(filter);
    return statements.page.all({ ...params, limit, offset }) as AlertRow[];
  }

  countAlerts(filter: AlertFilter): number {
    const { statements, params } = this.shape(filter);
    return (statements.count.get(params) as { n: number }).n;
  }

  activities(cate: string | undefined, words: string[] | undefined, limit: number, offset: number) {
    const params = { cate: cate ?? null, words: words?.length ? JSON.stringify(words) : null };
    return {
      rows: this.activityPage.all({ ...params, limit, offset }) as ActivityRow[],
      total: (this.activityCount.get(params) as { n: number }).n,
    };
  }

  activityCategories(): { id: string; name: string; count: number }[] {
    return this.activityCates.all();
  }

  private shape(filter: AlertFilter) {
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    if (filter.anyWords?.length) {
      where.push("a.seq IN (SELECT rowid FROM alert_grams WHERE alert_grams MATCH @any)");
      params.any = anyWordExpression(filter.anyWords);
    }
    if (filter.noWords?.length) {
      where.push("a.seq NOT IN (SELECT rowid FROM alert_grams WHERE alert_grams MATCH @none)");
      params.none = anyWordExpression(filter.noWords);
    }
    if (filter.minPrice !== undefined) {
      where.push("a.price >= @mip");
      params.mip = filter.minPrice;
    }
    if (filter.maxPrice !== undefined) {
      where.push("a.price <= @mxp");
      params.mxp = filter.maxPrice;
    }
    if (filter.cateid !== undefined) {
      where.push("a.cateid = @cateid");
      params.cateid = filter.cateid;
    }
    if (filter.cateids !== undefined) {
      where.push("a.cateid IN (SELECT value FROM json_each(@cateids))");
      params.cateids = JSON.stringify(filter.cateids);
    }
    if (filter.tag !== undefined) {
      where.push("a.seq IN (SELECT seq FROM alert_tags WHERE tag = @tag)");
      params.tag = filter.tag;
    }
    const clause = where.length ? `WHERE ${where.join(" AND ")}` : "";
    let statements = this.shapes.get(clause);
    if (!statements) {
      statements = {
        page: this.db.prepare(
          `SELECT a.* FROM alerts a ${clause} ${NEWEST_FIRST} LIMIT @limit OFFSET @offset`,
        ),
        count: this.db.prepare(`SELECT count(*) AS n FROM alerts a ${clause}`),
      };
      this.shapes.set(clause, statements);
    }
    return { statements, params };
  }
}
