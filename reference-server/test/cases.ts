import type { Spec } from "../../src/spec/spec.ts";
import { DEMO_KEY } from "./helpers.ts";

export interface Case {
  url: string;
  headers?: Record<string, string>;
  credentials?: "valid" | "invalid";
  /** Expected status; the rules then judge the body. */
  status: number;
}

const key = { "x-api-key": DEMO_KEY };
const wrongKey = { "x-api-key": "ffffffffffffffffffffffffffffffff" };

/**
 * Requests that exercise every x-conformance rule, the defaults, bounds and enums of every
 * operation: boundaries first (0, 1, 50, 51, max, max+1), separators, empty and duplicate values.
 */
export function cases(spec: Spec): Case[] {
  const acts = Object.keys(spec.rankWindows.windows);
  const refs = spec.categories.items.flatMap((c) => [c.alias, c.id]);
  const e = encodeURIComponent;
  return [
    { url: "/api/v1/meta", status: 200 },
    { url: "/api/v1/meta?unknown=1", status: 200 },

    ...acts.map((act) => ({ url: `/api/v1/rank?act=${act}`, status: 200 })),
    ...[1, 50, 51, 300].map((limit) => ({ url: `/api/v1/rank?act=shiwutian&limit=${limit}`, status: 200 })),
    { url: "/api/v1/rank?act=jintian&limit=", status: 200 },
    { url: "/api/v1/rank", status: 400 },
    { url: "/api/v1/rank?limit=10", status: 400 },
    { url: "/api/v1/rank?act=yinian", status: 400 },
    ...["0", "301", "-1", "1.5", "abc", "1e2"].map((limit) => ({
      url: `/api/v1/rank?act=jintian&limit=${limit}`,
      status: 400,
    })),
    { url: "/api/v1/rank?act=jintian&act=zuotian", status: 400 },

    { url: "/api/v1/feed", status: 200 },
    { url: "/api/v1/feed?limit=50", status: 200 },
    { url: "/api/v1/feed?limit=50&page=3", status: 200 },
    ...refs.map((cate) => ({ url: `/api/v1/feed?cate=${cate}&limit=50`, status: 200 })),
    { url: "/api/v1/feed?cate=all&limit=1", status: 200 },
    { url: "/api/v1/feed?type=zdm", status: 200 },
    { url: "/api/v1/feed?type=zdm&limit=50", status: 200 },
    { url: "/api/v1/feed?type=zdm&cate=all", status: 200 },
    { url: "/api/v1/feed?type=zdm&cate=weibo", status: 400 },
    { url: "/api/v1/feed?type=zdm&cate=10", status: 400 },
    { url: "/api/v1/feed?cate=nope", status: 400 },
    { url: "/api/v1/feed?type=smzdm", status: 400 },
    { url: "/api/v1/feed?limit=51", status: 400 },
    { url: "/api/v1/feed?limit=0", status: 400 },

    { url: "/api/v1/search", status: 400 },
    { url: "/api/v1/search?q=&kp=&mip=&mxp=", status: 400 },
    { url: `/api/v1/search?q=${e("| # \n ")}`, status: 400 },
    { url: "/api/v1/search?cate=weibo", status: 400 },
    { url: `/api/v1/search?q=${e("京东")}`, status: 200 },
    { url: `/api/v1/search?q=${e("京东|立减金#话费\n红包")}&limit=50`, status: 200 },
    { url: `/api/v1/search?q=${e(" 京 ")}`, status: 200 },
    { url: "/api/v1/search?q=plus", status: 200 },
    { url: "/api/v1/search?q=Redmi%20K80", status: 200 },
    { url: `/api/v1/search?kp=${e("京东|淘宝")}`, status: 200 },
    { url: `/api/v1/search?q=${e("立减金")}&kp=${e("农业银行|限量")}`, status: 200 },
    { url: "/api/v1/search?mip=10", status: 200 },
    { url: "/api/v1/search?mxp=100", status: 200 },
    { url: "/api/v1/search?mip=10.5&mxp=100.25&limit=50", status: 200 },
    { url: "/api/v1/search?mip=100&mxp=100", status: 200 },
    { url: "/api/v1/search?mip=0&mxp=0.5", status: 200 },
    { url: "/api/v1/search?mip=100&mxp=10", status: 400 },
    { url: "/api/v1/search?mip=-1", status: 400 },
    { url: "/api/v1/search?mip=abc", status: 400 },
    { url: "/api/v1/search?mxp=1000001", status: 400 },
    { url: "/api/v1/search?mip=10&cate=douban", status: 200 },
    { url: "/api/v1/search?mxp=10&cate=23", status: 200 },
    { url: "/api/v1/search?mip=1&cate=weibo", status: 200 },
    { url: `/api/v1/search?q=${e("红包")}&cate=zuankeba`, status: 200 },
    { url: `/api/v1/search?q=${e("红包")}&cate=10&limit=5&page=2`, status: 200 },
    { url: `/api/v1/search?q=${e("红包")}&page=1000`, status: 200 },
    { url: `/api/v1/search?q=${e("红包")}&page=1001`, status: 400 },
    { url: `/api/v1/search?q=${e("红包")}&cate=nope`, status: 400 },
    { url: `/api/v1/search?q=${"a".repeat(201)}`, status: 400 },
    { url: `/api/v1/search?q=${"ab|".repeat(11)}`, status: 400 },
    { url: `/api/v1/search?q=${"a".repeat(51)}`, status: 400 },
    { url: `/api/v1/search?q=a&q=b`, status: 400 },

    { url: "/api/v1/shenghuo", status: 200 },
    { url: "/api/v1/shenghuo?with_cates=1", status: 200 },
    { url: "/api/v1/shenghuo?with_cates=0&pageSize=100", status: 200 },
    { url: "/api/v1/shenghuo?cate=waimai&with_cates=1", status: 200 },
    { url: "/api/v1/shenghuo?cate=unknown-cate", status: 200 },
    { url: `/api/v1/shenghuo?q=${e("外卖|咖啡")}`, status: 200 },
    { url: "/api/v1/shenghuo?page=2&pageSize=5", status: 200 },
    { url: "/api/v1/shenghuo?pageSize=101", status: 400 },
    { url: "/api/v1/shenghuo?cate=BAD!", status: 400 },
    { url: "/api/v1/shenghuo?with_cates=2", status: 400 },

    { url: "/rss.php", status: 200 },
    { url: "/rss.php?cate=weibo", status: 200 },
    { url: `/rss.php?tag=${e("京东")}`, status: 200 },
    { url: `/rss.php?q=${e("立减金")}&cate=10`, status: 200 },
    { url: "/rss.php?cate=nope", status: 400 },

    ...["/api/v1/my/follow", "/api/v1/my/push"].flatMap((path): Case[] => [
      { url: `${path}?uid=10001`, headers: key, credentials: "valid", status: 200 },
      { url: `${path}?uid=10001&limit=1`, headers: key, credentials: "valid", status: 200 },
      { url: `${path}?uid=10001&limit=50`, headers: key, credentials: "valid", status: 200 },
      { url: `${path}?uid=10001&limit=51`, headers: key, credentials: "valid", status: 400 },
      { url: `${path}?uid=10001`, credentials: "invalid", status: 401 },
      { url: `${path}?uid=10001`, headers: wrongKey, credentials: "invalid", status: 401 },
      { url: `${path}?uid=424242`, headers: key, credentials: "invalid", status: 401 },
      { url: `${path}?uid=abc`, headers: key, credentials: "invalid", status: 401 },
      { url: path, headers: key, credentials: "invalid", status: 401 },
    ]),

    ...acts.map((act) => ({ url: `/plus/json/rank/${act}.json`, status: 200 })),
    { url: "/plus/json/rank/yinian.json", status: 400 },
  ];
}
