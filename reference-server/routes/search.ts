import { priceBound } from "../../src/rules/decimal.ts";
import type { Spec } from "../../src/spec/spec.ts";
import type { AlertFilter } from "../db/store.ts";
import { AlertBytes, alertBytes } from "../http/alert-bytes.ts";
import { alertRecord } from "../http/records.ts";
import type { Handler } from "./context.ts";
import { categoryId, priceScope, wordsOf } from "./spec-values.ts";

const DATA_OPEN = Buffer.from('{"data":[');
const COMMA = Buffer.from(",");
const META = Buffer.from('],"meta":');
const CLOSE = Buffer.from("}");

/** meta.price_scope serialized, once per spec: every answer carries the same. */
const scopes = new WeakMap<Spec, string>();
function priceScopeJson(spec: Spec): string {
  let json = scopes.get(spec);
  if (json === undefined) {
    json = JSON.stringify(priceScope(spec));
    scopes.set(spec, json);
  }
  return json;
}

/**
 * GET /api/v1/search: OR words, block words, price range and category, newest first, paged,
 * with the total. Results always carry content. A price filter on an unpriced category is
 * answered empty without a query: no alert there carries a price (see meta.price_scope).
 */
export const searchAlerts: Handler = (ctx, { operation, parsed }) => {
  const v = parsed.values;
  const cate = v.cate as string;
  const page = v.page as number;
  const limit = v.limit as number;
  // Bounds compare as the decimals written, not as the doubles Number() rounds them to (decimal.ts).
  const mip = v.mip as number | undefined;
  const mxp = v.mxp as number | undefined;
  // Everything the answer reads from the request, besides the data: repeated searches are
  // answered from the serialized body until the data changes (first-seen ones are computed), kept
  // from a search's second build (most are asked once: Store.memo).
  const key = `search ${JSON.stringify([parsed.raw.q ?? null, parsed.raw.kp ?? null, mip ?? null, mxp ?? null, cate, page, limit])}`;
  const body = ctx.store.memo(
    key,
    () => {
      const cateid = categoryId(ctx.spec, cate);
      const filter: AlertFilter = {
        anyWords: wordsOf(operation, parsed, "q"),
        noWords: wordsOf(operation, parsed, "kp"),
        // Bounds compare as the decimals written, not as the doubles Number() rounds them to (decimal.ts).
        minPrice: mip === undefined ? undefined : priceBound(String(parsed.raw.mip), "min"),
        maxPrice: mxp === undefined ? undefined : priceBound(String(parsed.raw.mxp), "max"),
        cateid,
      };
      const priceFilter = mip !== undefined || mxp !== undefined;
      const unpriced = cateid !== undefined && ctx.spec.category(cateid)?.priced === false;
      const impossible = priceFilter && unpriced;
      const total = impossible ? 0 : ctx.store.countAlerts(filter);
      const offset = (page - 1) * limit;
      // The page's rows as bytes, kept between searches when the page is read by doc number
      // (alert-bytes.ts); otherwise read and serialized here. The same bytes either way.
      let rows: Buffer[] = [];
      if (!impossible && offset < total) {
        const docs = ctx.store.alertDocs(filter, limit, offset, total);
        rows =
          (docs && AlertBytes.of(ctx.store).rowsOf(docs)) ??
          ctx.store.alerts(filter, limit, offset, total).map((row) => alertBytes(alertRecord(row, true)));
      }
      const meta = {
        q: parsed.raw.q ?? null,
        kp: parsed.raw.kp ?? null,
        mip: mip ?? null,
        mxp: mxp ?? null,
        cate,
        page,
        limit,
        count: rows.length,
        total,
      };
      // JSON.stringify({ data, meta }) byte for byte (price_scope is meta's last key), without
      // serializing the rows or the spec's price scope again.
      const metaJson = `${JSON.stringify(meta).slice(0, -1)},"price_scope":${priceScopeJson(ctx.spec)}}`;
      const parts: Buffer[] = [DATA_OPEN];
      for (let i = 0; i < rows.length; i++) {
        if (i > 0) parts.push(COMMA);
        parts.push(rows[i] as Buffer);
      }
      parts.push(META, Buffer.from(metaJson), CLOSE);
      return Buffer.concat(parts);
    },
    "second build",
  );
  return { status: 200, body };
};
