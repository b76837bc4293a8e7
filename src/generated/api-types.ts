// GENERATED FILE: DO NOT EDIT.
// Made by openapi-typescript from openapi/openapi.yaml; regenerate with `npm run generate`.
// A drift test in npm test fails when this file differs from a fresh generation.

export interface paths {
    "/api/v1/meta": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Capability manifest
         * @description The capability manifest: the 13 rank types with their windows, the subscribable
         *     categories (alias, ID, name, whether they carry prices), price-filter coverage,
         *     rate-limit parameters, the limits of every parameter, and the list of capabilities this
         *     service explicitly does not provide. It mirrors this document's `x-` extensions.
         */
        get: operations["getMeta"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/rank": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Ranked alerts of one time window
         * @description The alerts of one of 13 time windows (`x-rank-windows`, Asia/Shanghai), ordered by
         *     `comments` descending, then newest first. `content` is returned only when `limit` is
         *     greater than 50. The rank endpoint is also the source of history: the feed is only a
         *     latest snapshot.
         */
        get: operations["getRank"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/feed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Latest alerts of a channel
         * @description The latest snapshot of one channel, newest first: the whole-site stream (`cate=all`,
         *     the default), one category stream (alias or ID), or the independent "worth buying"
         *     stream (`type=zdm`, 值得买) whose items have a different structure. Each category stream
         *     keeps at most 20 items, the zdm stream at most 30. The feed is not a paginated history
         *     and has no paging parameter (a `page` parameter is ignored like any unknown parameter);
         *     history comes from rank. `cate` cannot be combined with `type=zdm` (400 naming `cate`),
         *     because the zdm stream has no categories.
         */
        get: operations["getFeed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search alerts by words, block words and price
         * @description Searches the alerts of all categories (not the zdm stream), newest first (by `shijianchuo`;
         *     alerts of the same second in any order). At least one
         *     of `q`, `kp`, `mip`, `mxp` must be given with a non-empty value, otherwise `400`.
         *     `q` and `kp` hold words separated by a newline, `|` or `#` (`x-words`); words are
         *     trimmed and empty words dropped. An alert matches `q` when any word occurs in its title
         *     or content (OR), and is excluded when any `kp` word occurs there. Matching is a literal
         *     substring, case-insensitive for Latin letters. `mip`/`mxp` are yuan, inclusive, and keep
         *     only alerts that carry a price: a price filter on a category without prices answers
         *     `200` with empty `data`, a data limitation and not a fault; `meta.price_scope` says which
         *     categories carry prices. `mip` greater than `mxp` is a `400`.
         */
        get: operations["searchAlerts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/shenghuo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Life-discount activities
         * @description Life-discount activities (生活优惠: takeaway, travel, top-up, cinema...), newest first
         *     (by `start_time`; activities of the same day in any order, but the same order on every
         *     page of one listing).
         *     Every record carries `h5`, the direct link of the activity, so no separate
         *     link-conversion call is needed. With `with_cates=1` the full list of activity categories
         *     is returned in the top-level `cates` array in addition to the records. Activity
         *     categories are data, published through `with_cates=1` and free to change without a spec
         *     change, so an unknown activity `cate` answers `200` with empty `data` rather than `400`
         *     (a departure from the alert `cate`, whose values this document enumerates).
         */
        get: operations["listActivities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rss.php": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * RSS 2.0 subscription
         * @description Public RSS 2.0 feed, no key needed: the whole site (no parameter), one category
         *     (`cate`, alias or ID), one tag (`tag`) or keywords (`q`, same words and matching as
         *     search). Filters combine with AND. Items are the latest 20 alerts that match, newest
         *     first. Served as `application/rss+xml; charset=utf-8`. Each `item` has `title`, `link`
         *     (the alert's `url`), `guid` (the same URL), `pubDate` (RFC 822, GMT), `category` (the
         *     category name) and `description` (the alert's content); other elements may be added
         *     within v1.
         */
        get: operations["getRss"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/my/follow": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My follow-hit stream
         * @description The alerts that matched the account's followed keywords, newest first. Called with the
         *     account's `uid` in the query and its secret key in the `X-API-Key` header. A missing key,
         *     a wrong key and an unknown uid all answer the same `401` with one identical body, so the
         *     answer does not reveal whether a uid exists.
         */
        get: operations["getMyFollowHits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/my/push": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My push-hit stream
         * @description The alerts that the account's push rules selected, newest first (what the push channel
         *     sent, readable by pull). Same credentials and the same identical `401` as
         *     `/api/v1/my/follow`.
         */
        get: operations["getMyPushHits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/plus/json/rank/{act}.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Rank as a JSON file (legacy extension)
         * @description The rank of one window as the real site's file `rank/{act}.json`: a bare JSON array of
         *     alerts in the real site's shape (no envelope), the top 50 entries without `content`, in
         *     rank order. Kept so existing scripts (RSSHub's `xianbao` route, community push scripts)
         *     keep working; new clients use `/api/v1/rank`.
         */
        get: operations["getLegacyRankFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description One of the 13 rank windows; `x-rank-windows` gives each window's span.
         * @enum {string}
         */
        RankAct: "yixiaoshi" | "sanxiaoshi" | "liuxiaoshi" | "shierxiaoshi" | "ershisixiaoshi" | "sishibaxiaoshi" | "jintian" | "zuotian" | "qiantian" | "santian" | "wutian" | "qitian" | "shiwutian";
        /**
         * @description A category alias or its ID (`x-categories`), or `all` for the whole site.
         * @default all
         * @enum {string}
         */
        CategoryRef: "all" | "zuankeba" | "16" | "xinzuanba" | "18" | "weibo" | "10" | "haodan" | "30" | "douban" | "23" | "kuan" | "17" | "xiaodigu" | "11" | "huluxia" | "20" | "xiaodao" | "3" | "qqjishu" | "6" | "yyok" | "7" | "huodong" | "8" | "mianfei" | "9" | "shangjin" | "40";
        /**
         * @description One alert (线报) in the real site's shape. `content` is omitted by rank when `limit` <= 50.
         *     `price` (yuan) is present only on alerts of priced categories (`x-categories`), and only
         *     when the alert states a price.
         */
        Alert: {
            id: number;
            title: string;
            /** @description Plain-text body of the alert. */
            content?: string;
            /**
             * Format: date
             * @description Publication date, YYYY-MM-DD, Asia/Shanghai (a date that exists: stated by `format` and the pattern since 1.2.0).
             */
            datetime: string;
            /** @description Publication time, HH:mm (00:00 to 23:59 since 1.2.0), Asia/Shanghai. */
            shorttime: string;
            /** @description Publication time, Unix seconds. */
            shijianchuo: number;
            /** @description Category ID (`x-categories`). */
            cateid: string;
            catename: string;
            comments: number;
            /** @description Author (楼主). */
            louzhu: string;
            /**
             * Format: date
             * @description Author's registration date (YYYY-MM-DD, since 1.2.0 stated as a date) when known.
             */
            louzhuregtime: string | null;
            /**
             * Format: uri
             * @description Absolute link to the alert on the site.
             */
            url: string;
            /**
             * Format: uri
             * @description Link to the original post when there is one (an absolute URI, stated since 1.2.0).
             */
            yuanurl: string | null;
            /** @description Price in yuan; only on priced categories. */
            price?: number;
            tags: string[];
        };
        /** @description One item of the independent "worth buying" (值得买) stream; always priced. */
        ZdmItem: {
            id: number;
            /** @constant */
            type: "smzdm";
            title: string;
            /** @description Price in yuan. */
            price: number;
            mall_name: string;
            brand: string | null;
            category_name: string;
            /** Format: uri */
            pic: string;
            /** @description Publication time, Unix seconds. */
            posttime: number;
            /** Format: uri */
            url: string;
            content?: string;
        };
        /** @description One life-discount activity; `h5` is its direct link. */
        Activity: {
            id: number;
            name: string;
            desc: string;
            /** @description Activity category id (see `cates`). */
            cate: string;
            /**
             * Format: uri
             * @description Direct activity link.
             */
            h5: string;
            /** Format: uri */
            pic: string;
            /**
             * Format: date
             * @description First day, YYYY-MM-DD (a date that exists: stated since 1.2.0).
             */
            start_time: string;
            /**
             * Format: date
             * @description Last day, YYYY-MM-DD, or null when open-ended.
             */
            end_time: string | null;
        };
        ActivityCategory: {
            id: string;
            name: string;
            /** @description Activities of this category in the whole list: not only this page, and whatever the request's q or cate. */
            count: number;
        };
        /** @description Which categories carry prices; a price filter on any other category finds nothing. */
        PriceScope: {
            /** @description Category IDs (not aliases), as `cateid` carries them. */
            priced_categories: string[];
            priced_streams: string[];
            /** @constant */
            unit: "CNY";
            note: string;
        };
        RankResponse: {
            data: components["schemas"]["Alert"][];
            meta: {
                act: components["schemas"]["RankAct"];
                limit: number;
                count: number;
                window: {
                    /** @description Window start, Unix seconds (inclusive). */
                    from: number;
                    /** @description Window end, Unix seconds (inclusive). */
                    to: number;
                    /** @constant */
                    timezone: "Asia/Shanghai";
                };
            };
        };
        FeedResponse: {
            data: (components["schemas"]["Alert"] | components["schemas"]["ZdmItem"])[];
            meta: {
                cate: string;
                type?: string | null;
                limit: number;
                count: number;
                /** @description Items this stream keeps (20 or 30). */
                retention: number;
            };
        };
        SearchResponse: {
            data: components["schemas"]["Alert"][];
            meta: {
                q?: string | null;
                kp?: string | null;
                mip?: number | null;
                mxp?: number | null;
                cate?: string;
                page: number;
                limit: number;
                count: number;
                total: number;
                price_scope: components["schemas"]["PriceScope"];
            };
        };
        ShenghuoResponse: {
            data: components["schemas"]["Activity"][];
            meta: {
                cate?: string | null;
                q?: string | null;
                page: number;
                pageSize: number;
                count: number;
                total: number;
            };
            cates?: components["schemas"]["ActivityCategory"][];
        };
        MetaResponse: {
            data: {
                api_version: string;
                rank_types: {
                    act: components["schemas"]["RankAct"];
                    label: string;
                    /** @description Human-readable span, e.g. 'last 1 h' or 'calendar day -1'. */
                    window: string;
                }[];
                categories: {
                    id: string;
                    alias: string;
                    name: string;
                    priced: boolean;
                }[];
                streams: {
                    type: string;
                    name: string;
                    priced: boolean;
                    retention: number;
                }[];
                price_filter: components["schemas"]["PriceScope"];
                rate_limit: {
                    limit: number;
                    window_seconds: number;
                    scope: string;
                };
                /**
                 * @description Bounds of parameters, by operationId and parameter name. Every numeric parameter
                 *     with a minimum or maximum is listed, with exactly the `minimum`, `maximum` and
                 *     `default` its schema has: a key the schema lacks is absent (no default = no
                 *     `default` key, never `null`). Other parameters may be listed too (string
                 *     `minLength`/`maxLength`); clients ignore keys they do not know.
                 */
                limits: {
                    [key: string]: {
                        [key: string]: {
                            minimum?: number;
                            maximum?: number;
                            minLength?: number;
                            maxLength?: number;
                            default?: unknown;
                        };
                    };
                };
                not_provided: {
                    id: string;
                    description: string;
                }[];
            };
            meta: {
                /** @description Unix seconds. */
                generated_at: number;
            };
        };
        PersonalResponse: {
            data: components["schemas"]["Alert"][];
            meta: {
                uid: number;
                limit: number;
                count: number;
            };
        };
        LegacyRankFile: components["schemas"]["Alert"][];
        /** @description RFC 9457 problem details; `type` is one of `x-problem-types` as `/problems/{code}`. */
        Problem: {
            /** Format: uri-reference */
            type: string;
            title: string;
            status: number;
            detail: string;
            instance?: string;
            errors?: {
                /** @enum {string} */
                in: "query" | "path" | "header";
                name: string;
                reason: string;
            }[];
        };
    };
    responses: {
        /** @description A parameter is missing, malformed, out of range or not allowed; `errors` names it. */
        BadRequest: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                "Cache-Control": components["headers"]["Cache-Control"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Missing or wrong credentials; one identical body whether the uid exists or not. */
        Unauthorized: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                "Cache-Control": components["headers"]["Cache-Control"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description More than 60 requests from this IP within a sliding minute. Wait `Retry-After` seconds. */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                "Cache-Control": components["headers"]["Cache-Control"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: {
        /** @description Rank type, one of the 13 windows of `x-rank-windows` (Asia/Shanghai). */
        RankAct: components["schemas"]["RankAct"];
        /** @description Rank type, one of the 13 windows of `x-rank-windows`. */
        LegacyRankAct: components["schemas"]["RankAct"];
        /** @description Number of entries, 1 to 300. When `limit` <= 50 the `content` field is not returned. */
        RankLimit: number;
        /** @description Category alias or ID (`x-categories`); `all` is the whole-site stream. */
        FeedCate: components["schemas"]["CategoryRef"];
        /** @description `zdm` selects the independent "worth buying" stream, whose items differ in structure. */
        FeedType: "zdm";
        /** @description Number of items, 1 to 50 (a category stream holds at most 20, zdm at most 30). */
        FeedLimit: number;
        /** @description Keywords separated by a newline, `|` or `#`; words combine with OR. One of q, kp, mip, mxp is required. At most 10 words of at most 50 characters each (`x-words`); more is a `400`. */
        SearchQ: string;
        /** @description Block words, same separators as q; results containing any of them are excluded. At most 10 words of at most 50 characters each (`x-words`); more is a `400`. */
        SearchKp: string;
        /** @description Minimum price in yuan (CNY), inclusive; written `^[0-9]+(\.[0-9]+)?$` (no exponent, sign or bare point). Keeps only alerts that carry a price. */
        SearchMip: number;
        /** @description Maximum price in yuan (CNY), inclusive; written `^[0-9]+(\.[0-9]+)?$` (no exponent, sign or bare point); not below mip. */
        SearchMxp: number;
        /** @description Restricts the search to one category (alias or ID); `all` is every category. */
        SearchCate: components["schemas"]["CategoryRef"];
        /** @description Page number, from 1. A page past the end answers 200 with empty data. */
        Page: number;
        /** @description Items per page, 1 to 50. */
        SearchLimit: number;
        /** @description Activity category id as listed by `with_cates=1` (for example `waimai`); an unknown one gives empty data. */
        ShenghuoCate: string;
        /** @description Keyword matched against activity name and description (same separators as search q). At most 10 words of at most 50 characters each (`x-words`); more is a `400`. */
        ShenghuoQ: string;
        /** @description Items per page, 1 to 100. */
        ShenghuoPageSize: number;
        /** @description When `1`, the full list of activity categories is returned in `cates`. */
        ShenghuoWithCates: "0" | "1";
        /** @description One category (alias or ID); `all` or absent is the whole site. */
        RssCate: components["schemas"]["CategoryRef"];
        /** @description One tag; only alerts carrying it (exact match). */
        RssTag: string;
        /** @description Keywords, same separators and matching as search q. At most 10 words of at most 50 characters each (`x-words`); more is a `400`. */
        RssQ: string;
        /** @description The account's numeric uid, written as the account's uid is (no leading zero, sign or decimals); any other form is the shared `401`, checked before the parameters. */
        Uid: number;
        /** @description Number of hits, 1 to 50. */
        PersonalLimit: number;
    };
    requestBodies: never;
    headers: {
        /** @description Requests allowed per window for this client IP. */
        "RateLimit-Limit": number;
        /** @description Requests left in the current sliding window. */
        "RateLimit-Remaining": number;
        /** @description Seconds until at least one more request is allowed. */
        "RateLimit-Reset": number;
        /** @description Delta-seconds to wait before the next request; never 0. Do not retry sooner. */
        "Retry-After": number;
        /** @description How caches may keep the answer (`x-caching`): `no-cache` on public answers, `private, no-store` on every answer of the personal streams, `no-store` on every `429`. */
        "Cache-Control": string;
        /** @description Any origin may read the response. */
        "Access-Control-Allow-Origin": "*";
        /** @description Headers a browser script may read (Retry-After and the RateLimit-* headers). */
        "Access-Control-Expose-Headers": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getMeta: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The manifest. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MetaResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getRank: {
        parameters: {
            query: {
                /** @description Rank type, one of the 13 windows of `x-rank-windows` (Asia/Shanghai). */
                act: components["parameters"]["RankAct"];
                /** @description Number of entries, 1 to 300. When `limit` <= 50 the `content` field is not returned. */
                limit?: components["parameters"]["RankLimit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ranked entries of the window. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RankResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getFeed: {
        parameters: {
            query?: {
                /** @description Category alias or ID (`x-categories`); `all` is the whole-site stream. */
                cate?: components["parameters"]["FeedCate"];
                /** @description `zdm` selects the independent "worth buying" stream, whose items differ in structure. */
                type?: components["parameters"]["FeedType"];
                /** @description Number of items, 1 to 50 (a category stream holds at most 20, zdm at most 30). */
                limit?: components["parameters"]["FeedLimit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The latest snapshot of the channel. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeedResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    searchAlerts: {
        parameters: {
            query?: {
                /** @description Keywords separated by a newline, `|` or `#`; words combine with OR. One of q, kp, mip, mxp is required. At most 10 words of at most 50 characters each (`x-words`); more is a `400`. */
                q?: components["parameters"]["SearchQ"];
                /** @description Block words, same separators as q; results containing any of them are excluded. At most 10 words of at most 50 characters each (`x-words`); more is a `400`. */
                kp?: components["parameters"]["SearchKp"];
                /** @description Minimum price in yuan (CNY), inclusive; written `^[0-9]+(\.[0-9]+)?$` (no exponent, sign or bare point). Keeps only alerts that carry a price. */
                mip?: components["parameters"]["SearchMip"];
                /** @description Maximum price in yuan (CNY), inclusive; written `^[0-9]+(\.[0-9]+)?$` (no exponent, sign or bare point); not below mip. */
                mxp?: components["parameters"]["SearchMxp"];
                /** @description Restricts the search to one category (alias or ID); `all` is every category. */
                cate?: components["parameters"]["SearchCate"];
                /** @description Page number, from 1. A page past the end answers 200 with empty data. */
                page?: components["parameters"]["Page"];
                /** @description Items per page, 1 to 50. */
                limit?: components["parameters"]["SearchLimit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of matching alerts, newest first. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listActivities: {
        parameters: {
            query?: {
                /** @description Activity category id as listed by `with_cates=1` (for example `waimai`); an unknown one gives empty data. */
                cate?: components["parameters"]["ShenghuoCate"];
                /** @description Keyword matched against activity name and description (same separators as search q). At most 10 words of at most 50 characters each (`x-words`); more is a `400`. */
                q?: components["parameters"]["ShenghuoQ"];
                /** @description Page number, from 1. A page past the end answers 200 with empty data. */
                page?: components["parameters"]["Page"];
                /** @description Items per page, 1 to 100. */
                pageSize?: components["parameters"]["ShenghuoPageSize"];
                /** @description When `1`, the full list of activity categories is returned in `cates`. */
                with_cates?: components["parameters"]["ShenghuoWithCates"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of activities. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShenghuoResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getRss: {
        parameters: {
            query?: {
                /** @description One category (alias or ID); `all` or absent is the whole site. */
                cate?: components["parameters"]["RssCate"];
                /** @description One tag; only alerts carrying it (exact match). */
                tag?: components["parameters"]["RssTag"];
                /** @description Keywords, same separators and matching as search q. At most 10 words of at most 50 characters each (`x-words`); more is a `400`. */
                q?: components["parameters"]["RssQ"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An RSS 2.0 document. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/rss+xml": string;
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getMyFollowHits: {
        parameters: {
            query: {
                /** @description The account's numeric uid, written as the account's uid is (no leading zero, sign or decimals); any other form is the shared `401`, checked before the parameters. */
                uid: components["parameters"]["Uid"];
                /** @description Number of hits, 1 to 50. */
                limit?: components["parameters"]["PersonalLimit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The latest follow hits of the account. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PersonalResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getMyPushHits: {
        parameters: {
            query: {
                /** @description The account's numeric uid, written as the account's uid is (no leading zero, sign or decimals); any other form is the shared `401`, checked before the parameters. */
                uid: components["parameters"]["Uid"];
                /** @description Number of hits, 1 to 50. */
                limit?: components["parameters"]["PersonalLimit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The latest push hits of the account. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PersonalResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getLegacyRankFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Rank type, one of the 13 windows of `x-rank-windows`. */
                act: components["parameters"]["LegacyRankAct"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ranked entries, as a bare array. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Expose-Headers": components["headers"]["Access-Control-Expose-Headers"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LegacyRankFile"];
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
        };
    };
}
