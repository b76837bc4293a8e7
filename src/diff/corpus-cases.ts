/**
 * The hard edit corpus: realistic edits to openapi/openapi.yaml, each a JSON Patch with the class a
 * reviewer gives it and why. It goes past the rule tables (one row per rule) to the ways the same
 * change is written differently: through a $ref or inlined, under allOf/oneOf/anyOf, as a type
 * array or with `nullable`, with equivalent bounds or serialization, in a request or a response.
 * Levels follow src/diff/README.md (Decisions); where ours differs from oasdiff, the README says why.
 */
import type { CorpusCase } from "./corpus.ts";

const S = "/components/schemas";
const P = "/components/parameters";
const R = "/components/responses";
const H = "/components/headers";
/** The pointer of an operation: `op("/api/v1/rank")` is `/paths/~1api~1v1~1rank/get`. */
const op = (path: string, method = "get") =>
  `/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}/${method}`;
const RANK = op("/api/v1/rank");
const FEED = op("/api/v1/feed");
const SEARCH = op("/api/v1/search");
const SHENGHUO = op("/api/v1/shenghuo");
const META = op("/api/v1/meta");
const FOLLOW = op("/api/v1/my/follow");
const PUSH = op("/api/v1/my/push");
const RSS = op("/rss.php");
const LEGACY = op("/plus/json/rank/{act}.json");

/** Alert's properties, written in another order: the same schema. */
const ALERT_KEYS_REORDERED = {
  type: "object",
  properties: {
    tags: { type: "array", items: { type: "string" } },
    price: { type: "number", minimum: 0, description: "Price in yuan; only on priced categories." },
    yuanurl: { type: ["string", "null"], description: "Link to the original post when there is one." },
    url: { type: "string", format: "uri", description: "Absolute link to the alert on the site." },
    louzhuregtime: { type: ["string", "null"], description: "Author's registration date when known." },
    louzhu: { type: "string", description: "Author (楼主)." },
    comments: { minimum: 0, type: "integer" },
    catename: { type: "string" },
    cateid: { type: "string", description: "Category ID (`x-categories`)." },
    shijianchuo: { type: "integer", minimum: 0, description: "Publication time, Unix seconds." },
    shorttime: {
      type: "string",
      pattern: "^[0-2][0-9]:[0-5][0-9]$",
      description: "Publication time, HH:mm, Asia/Shanghai.",
    },
    datetime: {
      type: "string",
      pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
      description: "Publication date, YYYY-MM-DD, Asia/Shanghai.",
    },
    content: { type: "string", description: "Plain-text body of the alert." },
    title: { minLength: 1, type: "string" },
    id: { minimum: 1, type: "integer" },
  },
  required: [
    "tags",
    "yuanurl",
    "url",
    "louzhuregtime",
    "louzhu",
    "comments",
    "catename",
    "cateid",
    "shijianchuo",
    "shorttime",
    "datetime",
    "title",
    "id",
  ],
  description:
    "One alert (线报) in the real site's shape. `content` is omitted by rank when `limit` <= 50.\n`price` (yuan) is present only on alerts of priced categories (`x-categories`), and only\nwhen the alert states a price.\n",
};

// biome-ignore format: a corpus reads best one case per line
export const CORPUS: CorpusCase[] = [
  // --- $ref indirection: the same schema written elsewhere is no change; a change reaches every use.
  { name: "response field schema moved into components", patch: [{ op: "add", path: `${S}/Title`, value: { type: "string", minLength: 1 } }, { op: "replace", path: `${S}/Alert/properties/title`, value: { $ref: "#/components/schemas/Title" } }], want: "none", why: "the same schema behind a $ref" },
  { name: "shared parameter inlined into the operation", patch: [{ op: "replace", path: `${RANK}/parameters/1`, value: { name: "limit", in: "query", required: false, description: "Number of entries, 1 to 300. When `limit` <= 50 the `content` field is not returned.", schema: { type: "integer", minimum: 1, maximum: 300, default: 20 } } }], want: "none", why: "the same parameter written inline" },
  { name: "shared response inlined", patch: [{ op: "copy", from: `${R}/BadRequest`, path: `${FEED}/responses/400` }], want: "none", why: "the same response written inline" },
  { name: "component renamed, every $ref follows", patch: [{ op: "move", from: `${S}/Alert`, path: `${S}/AlertItem` }, ...["RankResponse/properties/data/items", "SearchResponse/properties/data/items", "PersonalResponse/properties/data/items", "LegacyRankFile/items", "FeedResponse/properties/data/items/oneOf/0"].map((p) => ({ op: "replace" as const, path: `${S}/${p}`, value: { $ref: "#/components/schemas/AlertItem" } }))], want: "none", why: "a component's name is not part of the wire format" },
  { name: "oneOf branch behind a renamed copy of its component", patch: [{ op: "copy", from: `${S}/ZdmItem`, path: `${S}/WorthBuyingItem` }, { op: "replace", path: `${S}/FeedResponse/properties/data/items/oneOf/1`, value: { $ref: "#/components/schemas/WorthBuyingItem" } }], want: "none", why: "the same branch under another component name" },
  { name: "bound lowered in a shared parameter component", patch: [{ op: "replace", path: `${P}/RankLimit/schema/maximum`, value: 100 }], want: "breaking", why: "limit=200 was served and is now refused, through the $ref" },
  { name: "enum value removed from a component used in requests and responses", patch: [{ op: "remove", path: `${S}/RankAct/enum/12` }], want: "breaking", why: "act=shiwutian is refused (request side)" },
  { name: "enum value added to a component used in requests and responses", patch: [{ op: "add", path: `${S}/RankAct/enum/-`, value: "sanshitian" }], want: "warning", why: "meta.act may carry a window clients do not know (response enum growth)" },
  { name: "field removed in a component reached only through a $ref chain", patch: [{ op: "remove", path: `${S}/PriceScope/properties/note` }, { op: "replace", path: `${S}/PriceScope/required`, value: ["priced_categories", "priced_streams", "unit"] }], want: "breaking", why: "search meta.price_scope.note and meta price_filter.note disappear" },

  // --- allOf / oneOf / anyOf: equivalent restructurings are no change, the others are judged by direction.
  { name: "response object split into allOf parts", patch: [{ op: "replace", path: `${S}/ZdmItem`, value: { allOf: [{ type: "object", required: ["id", "type", "title", "price", "mall_name"], properties: { id: { type: "integer", minimum: 1 }, type: { type: "string", const: "smzdm" }, title: { type: "string", minLength: 1 }, price: { type: "number", minimum: 0, description: "Price in yuan." }, mall_name: { type: "string" } } }, { type: "object", required: ["brand", "category_name", "pic", "posttime", "url"], properties: { brand: { type: ["string", "null"] }, category_name: { type: "string" }, pic: { type: "string", format: "uri" }, posttime: { type: "integer", minimum: 0, description: "Publication time, Unix seconds." }, url: { type: "string", format: "uri" }, content: { type: "string" } } }], description: "One item of the independent \"worth buying\" (值得买) stream; always priced." } }], want: "none", why: "allOf of the two halves validates exactly the same items" },
  { name: "response object split into allOf parts, one field dropped", patch: [{ op: "replace", path: `${S}/ActivityCategory`, value: { allOf: [{ type: "object", required: ["id"], properties: { id: { type: "string", pattern: "^[a-z0-9_-]{1,32}$" } } }, { type: "object", required: ["name"], properties: { name: { type: "string" } } }] } }], want: "breaking", why: "cates[].count is gone" },
  { name: "allOf adds a required field to a response", patch: [{ op: "replace", path: `${S}/Activity`, value: { allOf: [{ $ref: "#/components/schemas/ActivityCategory" }] } }, { op: "replace", path: `${S}/ShenghuoResponse/properties/data/items`, value: { allOf: [{ type: "object", description: "One life-discount activity; `h5` is its direct link.", required: ["id", "name", "desc", "cate", "h5", "pic", "start_time", "end_time"], properties: { id: { type: "integer", minimum: 1 }, name: { type: "string", minLength: 1 }, desc: { type: "string" }, cate: { type: "string", description: "Activity category id (see `cates`)." }, h5: { type: "string", format: "uri", pattern: "^https://", description: "Direct activity link." }, pic: { type: "string", format: "uri" }, start_time: { type: "string", pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$" }, end_time: { type: ["string", "null"], pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$" } } }, { type: "object", required: ["city"], properties: { city: { type: "string" } } }] } }], want: "info", why: "every activity gains a city field; additive" },
  { name: "allOf adds a tighter bound to a request parameter", patch: [{ op: "replace", path: `${P}/SearchQ/schema`, value: { allOf: [{ type: "string", maxLength: 200 }, { maxLength: 100 }] } }], want: "breaking", why: "a q of 150 characters was served and is now refused" },
  { name: "request parameter schema written as allOf of its parts", patch: [{ op: "replace", path: `${P}/Page/schema`, value: { allOf: [{ type: "integer" }, { minimum: 1, maximum: 1000 }], default: 1 } }], want: "none", why: "the same integer range" },
  { name: "single-branch oneOf wrapping a response field", patch: [{ op: "replace", path: `${S}/Alert/properties/title`, value: { oneOf: [{ type: "string", minLength: 1 }] } }], want: "none", why: "oneOf of one schema is that schema" },
  { name: "nullable written as oneOf with a null branch", patch: [{ op: "replace", path: `${S}/Alert/properties/yuanurl`, value: { oneOf: [{ type: "string" }, { type: "null" }], description: "Link to the original post when there is one." } }], want: "none", why: "oneOf [string, null] is type [string, null]" },
  { name: "nullable written as anyOf with a null branch", patch: [{ op: "replace", path: `${S}/ZdmItem/properties/brand`, value: { anyOf: [{ type: "string" }, { type: "null" }] } }], want: "none", why: "anyOf [string, null] is type [string, null]" },
  { name: "response field made nullable through anyOf", patch: [{ op: "replace", path: `${S}/Alert/properties/catename`, value: { anyOf: [{ type: "string" }, { type: "null" }] } }], want: "breaking", why: "catename may now be null" },
  { name: "response oneOf becomes anyOf", patch: [{ op: "move", from: `${S}/FeedResponse/properties/data/items/oneOf`, path: `${S}/FeedResponse/properties/data/items/anyOf` }], want: "warning", why: "an item may now match both shapes" },
  { name: "response oneOf branches reordered", patch: [{ op: "move", from: `${S}/FeedResponse/properties/data/items/oneOf/1`, path: `${S}/FeedResponse/properties/data/items/oneOf/0` }], want: "none", why: "branch order means nothing" },
  { name: "response oneOf branch inlined", patch: [{ op: "copy", from: `${S}/ZdmItem`, path: `${S}/FeedResponse/properties/data/items/oneOf/1` }, { op: "remove", path: `${S}/FeedResponse/properties/data/items/oneOf/2` }], want: "none", why: "the same branch written inline" },
  { name: "new oneOf branch in a response item", patch: [{ op: "add", path: `${S}/FeedResponse/properties/data/items/oneOf/-`, value: { type: "object", required: ["id", "type"], properties: { id: { type: "integer" }, type: { type: "string", const: "video" } } } }], want: "breaking", why: "a feed item of a shape clients cannot parse" },
  { name: "oneOf branch removed from a response item", patch: [{ op: "remove", path: `${S}/FeedResponse/properties/data/items/oneOf/1` }], want: "breaking", why: "zdm items no longer match the schema clients generated" },
  { name: "request parameter given a second accepted shape", patch: [{ op: "replace", path: `${P}/FeedType/schema`, value: { oneOf: [{ type: "string", enum: ["zdm"] }, { type: "string", enum: ["hot"] }] } }], want: "info", why: "type=hot is now accepted too" },

  // --- nullable and types.
  { name: "response field nullable (OAS 3.0 keyword)", patch: [{ op: "add", path: `${S}/Alert/properties/catename/nullable`, value: true }], want: "breaking", why: "catename may now be null" },
  { name: "response field nullable via a type array", patch: [{ op: "replace", path: `${S}/Activity/properties/pic/type`, value: ["string", "null"] }], want: "breaking", why: "pic may now be null" },
  { name: "response field no longer nullable", patch: [{ op: "replace", path: `${S}/Activity/properties/end_time/type`, value: "string" }], want: "info", why: "clients handled null and still handle strings" },
  { name: "type array reordered", patch: [{ op: "replace", path: `${S}/Alert/properties/yuanurl/type`, value: ["null", "string"] }], want: "none", why: "a type array is a set" },
  { name: "type written as a one-element array", patch: [{ op: "replace", path: `${S}/Alert/properties/comments/type`, value: ["integer"] }], want: "none", why: "[integer] is integer" },
  { name: "response field gains a second type", patch: [{ op: "replace", path: `${S}/ZdmItem/properties/price/type`, value: ["number", "string"] }], want: "breaking", why: "price may arrive as a string" },
  { name: "response array items change type", patch: [{ op: "replace", path: `${S}/Alert/properties/tags/items`, value: { type: "integer" } }], want: "breaking", why: "tags are numbers now" },
  { name: "response array becomes an object", patch: [{ op: "replace", path: `${S}/RankResponse/properties/data`, value: { type: "object", additionalProperties: { $ref: "#/components/schemas/Alert" } } }], want: "breaking", why: "data is no longer a list" },
  { name: "request parameter integer widened to number", patch: [{ op: "replace", path: `${P}/Page/schema/type`, value: "number" }], want: "info", why: "every integer is still accepted" },
  { name: "request parameter number narrowed to integer", patch: [{ op: "replace", path: `${P}/SearchMxp/schema/type`, value: "integer" }], want: "breaking", why: "mxp=9.9 is refused" },
  { name: "response number narrowed to integer", patch: [{ op: "replace", path: `${S}/Alert/properties/price/type`, value: "integer" }], want: "info", why: "an integer is a number clients already read" },

  // --- enum and const, by direction.
  { name: "request enum narrowed", patch: [{ op: "replace", path: `${P}/ShenghuoWithCates/schema/enum`, value: ["1"] }], want: "breaking", why: "with_cates=0 is refused" },
  { name: "request enum widened", patch: [{ op: "add", path: `${P}/ShenghuoWithCates/schema/enum/-`, value: "true" }], want: "info", why: "with_cates=true is accepted too" },
  { name: "request enum dropped", patch: [{ op: "remove", path: `${P}/FeedType/schema/enum` }], want: "info", why: "any type value is accepted" },
  { name: "request value restricted to an enum through a component", patch: [{ op: "replace", path: `${P}/SearchCate/schema`, value: { type: "string", default: "all", enum: ["all", "weibo", "10", "haodan", "30"] } }], want: "breaking", why: "cate=douban is refused in search" },
  { name: "request category value removed from the shared enum", patch: [{ op: "replace", path: `${S}/CategoryRef/enum`, value: ["all", "zuankeba", "16", "xinzuanba", "18", "weibo", "10", "haodan", "30", "douban", "23", "kuan", "17", "xiaodigu", "11", "huluxia", "20", "xiaodao", "3", "qqjishu", "6", "yyok", "7", "huodong", "8", "mianfei", "9"] }], want: "breaking", why: "cate=shangjin is refused on feed, search and rss" },
  { name: "single-value enum written as const", patch: [{ op: "replace", path: `${P}/FeedType/schema`, value: { type: "string", const: "zdm" } }], want: "none", why: "enum [zdm] and const zdm accept the same" },
  { name: "enum values reordered", patch: [{ op: "replace", path: `${S}/Problem/properties/errors/items/properties/in/enum`, value: ["header", "query", "path"] }], want: "none", why: "an enum is a set" },
  { name: "response enum narrowed", patch: [{ op: "replace", path: `${S}/Problem/properties/errors/items/properties/in/enum`, value: ["query", "path"] }], want: "info", why: "clients see fewer values" },
  { name: "response header const widened", patch: [{ op: "replace", path: `${H}/Access-Control-Allow-Origin/schema`, value: { type: "string", enum: ["*", "https://xianbao.fun"] } }], want: "breaking", why: "a browser on another origin may be refused" },
  { name: "response const widened to an enum", patch: [{ op: "replace", path: `${S}/RankResponse/properties/meta/properties/window/properties/timezone`, value: { type: "string", enum: ["Asia/Shanghai", "UTC"] } }], want: "breaking", why: "clients that hardcode the timezone misread windows" },
  { name: "response const dropped", patch: [{ op: "remove", path: `${S}/PriceScope/properties/unit/const` }], want: "breaking", why: "unit may be any currency" },

  // --- bounds, multipleOf, uniqueItems, on parameters and responses.
  { name: "request maximum lowered", patch: [{ op: "replace", path: `${P}/Page/schema/maximum`, value: 500 }], want: "breaking", why: "page=800 is refused" },
  { name: "request maximum raised", patch: [{ op: "replace", path: `${P}/Page/schema/maximum`, value: 5000 }], want: "info", why: "more pages accepted" },
  { name: "request minLength raised", patch: [{ op: "replace", path: `${P}/RssTag/schema/minLength`, value: 2 }], want: "breaking", why: "a one-character tag is refused" },
  { name: "request maxLength removed", patch: [{ op: "remove", path: `${P}/RssTag/schema/maxLength` }], want: "info", why: "longer tags accepted" },
  { name: "request inclusive minimum made exclusive", patch: [{ op: "remove", path: `${P}/SearchMip/schema/minimum` }, { op: "add", path: `${P}/SearchMip/schema/exclusiveMinimum`, value: 0 }], want: "breaking", why: "mip=0 is refused" },
  { name: "request integer minimum written as exclusiveMinimum", patch: [{ op: "remove", path: `${P}/RankLimit/schema/minimum` }, { op: "add", path: `${P}/RankLimit/schema/exclusiveMinimum`, value: 0 }], want: "none", why: "for integers, > 0 is >= 1" },
  { name: "request OAS 3.0 boolean exclusiveMaximum added", patch: [{ op: "add", path: `${P}/ShenghuoPageSize/schema/exclusiveMaximum`, value: true }], want: "breaking", why: "pageSize=100 is refused" },
  { name: "request multipleOf added", patch: [{ op: "add", path: `${P}/SearchMxp/schema/multipleOf`, value: 0.01 }], want: "breaking", why: "mxp=9.999 is refused" },
  { name: "request multipleOf relaxed to a divisor", patch: [{ op: "add", path: `${P}/Page/schema/multipleOf`, value: 1 }], want: "none", why: "every integer is a multiple of 1: nothing refused" },
  { name: "response multipleOf added", patch: [{ op: "add", path: `${S}/Alert/properties/price/multipleOf`, value: 0.01 }], want: "info", why: "prices in cents: a narrowing of what clients read" },
  { name: "response maxItems removed", patch: [{ op: "remove", path: `${S}/FeedResponse/properties/data/maxItems` }], want: "breaking", why: "clients sized for 50 items may get more" },
  { name: "response minimum lowered", patch: [{ op: "replace", path: `${S}/Problem/properties/status/minimum`, value: 100 }], want: "breaking", why: "a problem with status 200 may arrive" },
  { name: "response maximum written as an equivalent exclusiveMaximum", patch: [{ op: "remove", path: `${S}/Problem/properties/status/maximum` }, { op: "add", path: `${S}/Problem/properties/status/exclusiveMaximum`, value: 600 }], want: "none", why: "for integers, < 600 is <= 599" },
  { name: "response minItems removed", patch: [{ op: "remove", path: `${S}/Problem/properties/errors/minItems` }], want: "breaking", why: "errors may now be empty" },
  { name: "response uniqueItems added", patch: [{ op: "add", path: `${S}/Alert/properties/tags/uniqueItems`, value: true }], want: "info", why: "clients see no duplicate tags: a narrowing" },
  { name: "request uint bound lowered on the personal uid", patch: [{ op: "replace", path: `${P}/Uid/schema/maximum`, value: 99999999 }], want: "breaking", why: "nine-digit uids are refused" },
  { name: "request int32 format on a small integer", patch: [{ op: "add", path: `${P}/Page/schema/format`, value: "int32" }], want: "info", why: "every page 1..1000 is an int32: nothing refused" },

  // --- patterns and formats.
  { name: "request pattern narrowed", patch: [{ op: "replace", path: `${P}/ShenghuoCate/schema/pattern`, value: "^[a-z0-9_-]{1,16}$" }], want: "breaking", why: "a 20-character cate is refused" },
  { name: "request pattern added", patch: [{ op: "add", path: `${P}/RssTag/schema/pattern`, value: "^\\S+$" }], want: "breaking", why: "a tag with a space is refused" },
  { name: "response pattern widened", patch: [{ op: "replace", path: `${S}/Activity/properties/h5/pattern`, value: "^https?://" }], want: "breaking", why: "http links may arrive" },
  { name: "response pattern removed in the RSS body", patch: [{ op: "remove", path: `${RSS}/responses/200/content/application~1rss+xml/schema/pattern` }], want: "breaking", why: "the body may be something other than RSS 2.0" },
  { name: "response format changed", patch: [{ op: "replace", path: `${S}/ZdmItem/properties/pic/format`, value: "uri-reference" }], want: "breaking", why: "relative picture links may arrive" },
  { name: "response format added", patch: [{ op: "add", path: `${S}/Alert/properties/datetime/format`, value: "date" }], want: "info", why: "a narrower promise about what arrives" },

  // --- required, additionalProperties, readOnly.
  { name: "response field no longer required", patch: [{ op: "replace", path: `${S}/Alert/required`, value: ["id", "title", "datetime", "shorttime", "shijianchuo", "cateid", "catename", "comments", "louzhu", "louzhuregtime", "url", "tags"] }], want: "breaking", why: "yuanurl may be absent" },
  { name: "response field now required", patch: [{ op: "add", path: `${S}/ZdmItem/required/-`, value: "content" }], want: "info", why: "content always arrives" },
  { name: "required list reordered", patch: [{ op: "replace", path: `${S}/Problem/required`, value: ["detail", "status", "title", "type"] }], want: "none", why: "required is a set" },
  { name: "nested response field no longer required", patch: [{ op: "replace", path: `${S}/RankResponse/properties/meta/properties/window/required`, value: ["from", "to"] }], want: "breaking", why: "meta.window.timezone may be absent" },
  { name: "response object closed with additionalProperties false", patch: [{ op: "add", path: `${S}/Alert/additionalProperties`, value: false }], want: "info", why: "the server promises no extra fields; clients ignored them anyway" },
  { name: "response open map no longer typed", patch: [{ op: "replace", path: `${S}/MetaResponse/properties/data/properties/limits/additionalProperties`, value: true }], want: "breaking", why: "limits entries may be anything, not objects of bounds" },
  { name: "response field marked readOnly", patch: [{ op: "add", path: `${S}/Alert/properties/id/readOnly`, value: true }], want: "info", why: "readOnly changes nothing in a response" },
  { name: "response field marked writeOnly", patch: [{ op: "add", path: `${S}/Alert/properties/louzhu/writeOnly`, value: true }], want: "breaking", why: "a writeOnly field is not sent in responses: louzhu disappears" },

  // --- parameters.
  { name: "query parameter moved to a header", patch: [{ op: "replace", path: `${P}/RssTag/in`, value: "header" }], want: "breaking", why: "?tag= is ignored now" },
  { name: "query parameter renamed", patch: [{ op: "replace", path: `${P}/SearchKp/name`, value: "block" }], want: "breaking", why: "kp is ignored now" },
  { name: "path parameter renamed with its template", patch: [{ op: "move", from: "/paths/~1plus~1json~1rank~1{act}.json", path: "/paths/~1plus~1json~1rank~1{window}.json" }, { op: "replace", path: "/paths/~1plus~1json~1rank~1{window}.json/get/parameters/0", value: { name: "window", in: "path", required: true, description: "Rank type.", schema: { $ref: "#/components/schemas/RankAct" } } }], want: "info", why: "the URL clients call is unchanged" },
  { name: "optional header parameter added", patch: [{ op: "add", path: `${RANK}/parameters/-`, value: { name: "X-Client", in: "header", required: false, schema: { type: "string" } } }], want: "info", why: "clients may send it" },
  { name: "required query parameter added", patch: [{ op: "add", path: `${SHENGHUO}/parameters/-`, value: { name: "city", in: "query", required: true, schema: { type: "string" } } }], want: "breaking", why: "calls without city are refused" },
  { name: "required parameter added with a default", patch: [{ op: "add", path: `${RSS}/parameters/-`, value: { name: "format", in: "query", required: true, schema: { type: "string", enum: ["rss2"], default: "rss2" } } }], want: "breaking", why: "required means calls without it are refused, default or not" },
  { name: "optional parameter became required", patch: [{ op: "replace", path: `${P}/RankLimit/required`, value: true }], want: "breaking", why: "calls without limit are refused" },
  { name: "required parameter became optional", patch: [{ op: "replace", path: `${P}/RankAct/required`, value: false }], want: "info", why: "calls with act still work" },
  { name: "request default changed", patch: [{ op: "replace", path: `${P}/FeedLimit/schema/default`, value: 10 }], want: "breaking", why: "a call without limit now gets 10 items, not 20 (oasdiff: request-parameter-default-value-changed)" },
  { name: "request default added", patch: [{ op: "add", path: `${P}/SearchMip/schema/default`, value: 0 }], want: "breaking", why: "a search without mip now drops unpriced alerts" },
  { name: "response default added", patch: [{ op: "add", path: `${S}/FeedResponse/properties/meta/properties/type/default`, value: null }], want: "info", why: "a default in a response schema is an annotation: the server sends the value" },
  { name: "query serialization written out as its defaults", patch: [{ op: "add", path: `${P}/FeedCate/style`, value: "form" }, { op: "add", path: `${P}/FeedCate/explode`, value: true }], want: "none", why: "form and explode are the defaults of a query parameter" },
  { name: "explode false on a primitive query parameter", patch: [{ op: "add", path: `${P}/SearchLimit/explode`, value: false }], want: "none", why: "explode only changes how arrays and objects are written" },
  { name: "array query parameter explode changed", patch: [{ op: "replace", path: `${P}/RssTag/schema`, value: { type: "array", items: { type: "string", minLength: 1, maxLength: 50 } } }, { op: "add", path: `${P}/RssTag/explode`, value: false }], want: "breaking", why: "tag=a&tag=b becomes tag=a,b" },
  { name: "parameter deprecated", patch: [{ op: "add", path: `${P}/Page/deprecated`, value: true }], want: "info", why: "still accepted" },
  { name: "parameter description edited", patch: [{ op: "replace", path: `${P}/Page/description`, value: "Page number, from 1." }], want: "info", why: "documentation" },

  // --- operations, paths, security.
  { name: "operation removed", patch: [{ op: "remove", path: "/paths/~1rss.php" }], want: "breaking", why: "RSS readers get 404" },
  { name: "operation deprecated, still served", patch: [{ op: "add", path: `${LEGACY}/deprecated`, value: true }], want: "info", why: "still served" },
  { name: "path renamed", patch: [{ op: "move", from: "/paths/~1api~1v1~1shenghuo", path: "/paths/~1api~1v1~1life" }], want: "breaking", why: "clients call /api/v1/shenghuo" },
  { name: "security added to a public operation", patch: [{ op: "replace", path: `${SEARCH}/security`, value: [{ ApiKeyHeader: [] }] }], want: "breaking", why: "anonymous searches get 401" },
  { name: "public operation written with an empty alternative", patch: [{ op: "replace", path: `${META}/security`, value: [{}] }], want: "none", why: "[] and [{}] both mean no credentials" },
  { name: "security removed from a personal stream", patch: [{ op: "replace", path: `${PUSH}/security`, value: [] }], want: "info", why: "calls with the key still work" },
  { name: "API key moved to the query", patch: [{ op: "replace", path: "/components/securitySchemes/ApiKeyHeader/in", value: "query" }], want: "breaking", why: "the X-API-Key header is ignored" },
  { name: "operationId changed", patch: [{ op: "replace", path: `${SHENGHUO}/operationId`, value: "getActivities" }], want: "warning", why: "generated method names change; the wire does not" },

  // --- responses, headers, media types.
  { name: "success status removed", patch: [{ op: "move", from: `${META}/responses/200`, path: `${META}/responses/203` }], want: "breaking", why: "clients check for 200" },
  { name: "error status removed from a secured operation", patch: [{ op: "remove", path: `${PUSH}/responses/401` }], want: "breaking", why: "clients handle the documented 401" },
  { name: "error status added", patch: [{ op: "add", path: `${LEGACY}/responses/404`, value: { $ref: "#/components/responses/BadRequest" } }], want: "warning", why: "a status clients may not handle" },
  { name: "charset parameter on application/json", patch: [{ op: "move", from: `${SEARCH}/responses/200/content/application~1json`, path: `${SEARCH}/responses/200/content/application~1json;charset=UTF-8` }], want: "info", why: "the same media type, UTF-8 either way" },
  { name: "charset parameter on the RSS type", patch: [{ op: "move", from: `${RSS}/responses/200/content/application~1rss+xml`, path: `${RSS}/responses/200/content/application~1rss+xml; charset=utf-8` }], want: "info", why: "the description already says utf-8" },
  { name: "response media type widened to a wildcard", patch: [{ op: "move", from: `${RANK}/responses/200/content/application~1json`, path: `${RANK}/responses/200/content/application~1*` }], want: "breaking", why: "clients parse JSON; anything may arrive" },
  { name: "response media type renamed", patch: [{ op: "move", from: `${FEED}/responses/200/content/application~1json`, path: `${FEED}/responses/200/content/text~1json` }], want: "breaking", why: "clients that check Content-Type refuse it" },
  { name: "response media type added beside JSON", patch: [{ op: "add", path: `${FEED}/responses/200/content/application~1x-ndjson`, value: { schema: { type: "string" } } }], want: "info", why: "an extra representation" },
  { name: "Retry-After removed from the shared 429", patch: [{ op: "remove", path: `${R}/TooManyRequests/headers/Retry-After` }], want: "breaking", why: "clients wait Retry-After seconds" },
  { name: "CORS header removed from a 400", patch: [{ op: "remove", path: `${R}/BadRequest/headers/Access-Control-Allow-Origin` }], want: "breaking", why: "browsers cannot read the problem" },
  { name: "exposed-headers header removed from one 200", patch: [{ op: "remove", path: `${RSS}/responses/200/headers/Access-Control-Expose-Headers` }], want: "breaking", why: "browser scripts cannot read RateLimit-*" },
  { name: "Retry-After may be an HTTP date", patch: [{ op: "replace", path: `${H}/Retry-After/schema`, value: { type: ["integer", "string"], minimum: 1 } }], want: "breaking", why: "clients parse delta-seconds" },
  { name: "response header now required", patch: [{ op: "add", path: `${H}/RateLimit-Limit/required`, value: true }], want: "none", why: "clients reading it still do" },
  { name: "response header description edited", patch: [{ op: "replace", path: `${H}/RateLimit-Reset/description`, value: "Seconds until a request is allowed again." }], want: "info", why: "documentation" },

  // --- x-conformance vocabulary: x-rate-limit, x-cors, x-methods, x-rules, x-relations, x-categories.
  { name: "rate limit halved", patch: [{ op: "replace", path: "/x-rate-limit/limit", value: 30 }], want: "breaking", why: "clients pacing at 60/min get 429" },
  { name: "rate limit and window doubled (same rate, bigger burst)", patch: [{ op: "replace", path: "/x-rate-limit/limit", value: 120 }, { op: "replace", path: "/x-rate-limit/window_seconds", value: 120 }], want: "info", why: "any sequence allowed before is allowed now" },
  { name: "rate limit scope changed", patch: [{ op: "replace", path: "/x-rate-limit/scope", value: "api-key" }], want: "warning", why: "neither tighter nor looser for every client" },
  { name: "CORS origin restricted", patch: [{ op: "replace", path: "/x-cors/allow_origin", value: "https://xianbao.fun" }], want: "breaking", why: "browser clients on other origins fail" },
  { name: "CORS preflight header added", patch: [{ op: "add", path: "/x-cors/preflight/allow_headers/-", value: "If-None-Match" }], want: "info", why: "browsers may send more" },
  { name: "CORS answers listed in another order", patch: [{ op: "replace", path: "/x-cors/on", value: ["unauthorized", "rate-limited", "client-error", "success"] }], want: "none", why: "the same set" },
  { name: "HEAD no longer answered", patch: [{ op: "replace", path: "/x-methods/allow", value: ["GET", "OPTIONS"] }], want: "breaking", why: "monitors probing with HEAD get 405" },
  { name: "OPTIONS now counted", patch: [{ op: "replace", path: "/x-methods/options/counted", value: true }], want: "breaking", why: "preflights spend the client's budget" },
  { name: "x-methods policy prose edited", patch: [{ op: "replace", path: "/x-methods/policy", value: "GET is the API's method." }], want: "info", why: "documentation" },
  { name: "new refusing rule", patch: [{ op: "add", path: `${RANK}/x-conformance/-`, value: { id: "rank-limit-cap", summary: "limit above 200 is refused", when: { query: { limit: { gt: 200 } } }, then: { status: 400, problem: { params: ["limit"] } } } }], want: "breaking", why: "limit=250 was served" },
  { name: "refusing rule removed", patch: [{ op: "remove", path: `${SEARCH}/x-conformance/9` }], want: "info", why: "mip > mxp may now be served: accepts more" },
  { name: "refusing rule's status changed", patch: [{ op: "replace", path: `${FEED}/x-conformance/8/then/status`, value: 422 }], want: "breaking", why: "clients handle the 400" },
  { name: "promise rule removed", patch: [{ op: "remove", path: `${RANK}/x-conformance/4` }], want: "breaking", why: "rank order no longer promised" },
  { name: "promise rule added", patch: [{ op: "add", path: `${SHENGHUO}/x-conformance/-`, value: { id: "shenghuo-h5-https", summary: "h5 is https", then: { each: { at: "/data", fields: { h5: { prefix: "https://" } } } } } }], want: "info", why: "a new promise" },
  { name: "rule summary reworded", patch: [{ op: "replace", path: `${RANK}/x-conformance/2/summary`, value: "No more than limit entries." }], want: "info", why: "documentation" },
  { name: "feed retention lowered", patch: [{ op: "replace", path: `${FEED}/x-conformance/2/then/count/max`, value: 20 }], want: "breaking", why: "fewer zdm items kept" },
  { name: "feed retention raised", patch: [{ op: "replace", path: `${FEED}/x-conformance/1/then/count/max`, value: 30 }], want: "info", why: "more items kept" },
  { name: "rule examples edited", patch: [{ op: "remove", path: `${RANK}/x-conformance/0/examples/violates/0` }, { op: "add", path: `${RANK}/x-conformance/0/examples/violates/-`, value: { query: { act: "jintian" }, status: 200, body: { data: [{ id: 2, content: "x" }] } } }], want: "info", why: "examples illustrate" },
  { name: "relation removed", patch: [{ op: "remove", path: `${SEARCH}/x-relations/3` }], want: "breaking", why: "pages no longer promised disjoint" },
  { name: "relation added", patch: [{ op: "add", path: `${FOLLOW}/x-relations`, value: [{ id: "follow-limit-prefix", vary: { limit: { max: true } }, expect: { prefix: true } }] }], want: "info", why: "a new promise" },
  { name: "category removed", patch: [{ op: "remove", path: "/x-categories/items/13" }], want: "breaking", why: "cate=shangjin finds nothing" },
  { name: "category display name changed", patch: [{ op: "replace", path: "/x-categories/items/0/name", value: "赚客吧论坛" }], want: "info", why: "documentation" },
  { name: "category unpriced", patch: [{ op: "replace", path: "/x-categories/items/3/priced", value: false }], want: "breaking", why: "price filters on haodan find nothing" },
  { name: "rank window span changed", patch: [{ op: "replace", path: "/x-rank-windows/windows/santian/hours", value: 96 }], want: "breaking", why: "santian means 4 days now" },
  { name: "words per query lowered", patch: [{ op: "replace", path: `${P}/SearchQ/x-words/max_words`, value: 5 }], want: "breaking", why: "a 7-word query is refused" },
  { name: "word separator added", patch: [{ op: "add", path: `${P}/SearchKp/x-words/separators/-`, value: "," }], want: "breaking", why: "a kp word holding a comma is now split in two: it blocks something else" },
  { name: "query-string cap lowered", patch: [{ op: "replace", path: "/x-query-string/max_length", value: 2048 }], want: "breaking", why: "long queries refused" },
  { name: "support period shortened", patch: [{ op: "replace", path: "/x-versioning/min_support_months_after_successor", value: 3 }], want: "breaking", why: "v1 clients get less time" },
  { name: "problem type detail edited", patch: [{ op: "replace", path: "/x-problem-types/internal/detail", value: "The server failed." }], want: "info", why: "documentation" },
  { name: "problem type status changed", patch: [{ op: "replace", path: "/x-problem-types/missing-search-criterion/status", value: 422 }], want: "breaking", why: "clients handle 400" },
  { name: "not-provided capability listed", patch: [{ op: "add", path: "/x-not-provided/-", value: { id: "graphql", description: "No GraphQL endpoint." } }], want: "info", why: "documentation" },

  // --- equivalent YAML and documentation.
  { name: "schema keys reordered", patch: [{ op: "replace", path: `${S}/Alert`, value: ALERT_KEYS_REORDERED }], want: "none", why: "YAML key order means nothing" },
  { name: "responses listed in another order", patch: [{ op: "move", from: `${RANK}/responses/200`, path: `${RANK}/responses/200` }, { op: "move", from: `${RANK}/responses/400`, path: `${RANK}/responses/400` }], want: "none", why: "a map's order means nothing" },
  { name: "success response pointed at another operation's", patch: [{ op: "replace", path: `${RANK}/responses/200`, value: { $ref: "#/paths/~1api~1v1~1meta/get/responses/200" } }], want: "breaking", why: "a $ref that looks harmless: the rank now documents the meta body" },
  { name: "info description edited", patch: [{ op: "replace", path: "/info/summary", value: "Public JSON API of a deal-alert site." }], want: "info", why: "documentation" },
  { name: "operation summary edited", patch: [{ op: "replace", path: `${FEED}/summary`, value: "Latest alerts of one channel" }], want: "info", why: "documentation" },
  { name: "field description added", patch: [{ op: "add", path: `${S}/Alert/properties/catename/description`, value: "Category name." }], want: "info", why: "documentation" },
  // --- second batch, written as a reviewer would before the classifier saw it.
  { name: "security scheme renamed, every requirement follows", patch: [{ op: "move", from: "/components/securitySchemes/ApiKeyHeader", path: "/components/securitySchemes/AccountKey" }, { op: "replace", path: `${FOLLOW}/security`, value: [{ AccountKey: [] }] }, { op: "replace", path: `${PUSH}/security`, value: [{ AccountKey: [] }] }], want: "info", why: "a scheme's name is not on the wire: the same header carries the same key" },
  { name: "security scheme description edited", patch: [{ op: "replace", path: "/components/securitySchemes/ApiKeyHeader/description", value: "The account's secret key." }], want: "none", why: "scheme prose; the diff compares schemes where used, by what travels" },
  { name: "promise rule renamed, unchanged", patch: [{ op: "replace", path: `${RANK}/x-conformance/4/id`, value: "rank-ordered-by-comments" }], want: "info", why: "the same promise under another id" },
  { name: "relation renamed, unchanged", patch: [{ op: "replace", path: `${SEARCH}/x-relations/3/id`, value: "search-pages-never-overlap" }], want: "info", why: "the same promise under another id" },
  { name: "promise rule renamed and loosened", patch: [{ op: "replace", path: `${RANK}/x-conformance/2/id`, value: "rank-count-bounded" }, { op: "replace", path: `${RANK}/x-conformance/2/then/count/max`, value: 300 }], want: "breaking", why: "the limit promise is gone under the new id" },
  { name: "response schema dropped from a media type", patch: [{ op: "remove", path: `${META}/responses/200/content/application~1json/schema` }], want: "breaking", why: "the manifest body may be anything" },
  { name: "response header schema dropped", patch: [{ op: "remove", path: `${H}/RateLimit-Remaining/schema` }], want: "breaking", why: "RateLimit-Remaining may be any text" },
  { name: "response array items dropped", patch: [{ op: "remove", path: `${S}/Alert/properties/tags/items` }], want: "breaking", why: "tags may hold anything" },
  { name: "response array items untyped through an empty schema", patch: [{ op: "replace", path: `${S}/Alert/properties/tags/items`, value: {} }], want: "breaking", why: "tags may hold anything" },
  { name: "request parameter serialized as JSON content", patch: [{ op: "remove", path: `${P}/Page/schema` }, { op: "add", path: `${P}/Page/content`, value: { "application/json": { schema: { type: "integer", minimum: 1, maximum: 1000 } } } }], want: "breaking", why: "page is now written as JSON, clients send it as form text" },
  { name: "parameter moved to the path item", patch: [{ op: "move", from: `${RANK}/parameters`, path: "/paths/~1api~1v1~1rank/parameters" }], want: "none", why: "path-item parameters apply to its operations" },
  { name: "parameter moved to a cookie", patch: [{ op: "replace", path: `${P}/SearchLimit/in`, value: "cookie" }], want: "breaking", why: "?limit= is ignored" },
  { name: "method changed from GET to POST", patch: [{ op: "move", from: SHENGHUO, path: op("/api/v1/shenghuo", "post") }], want: "breaking", why: "GET /api/v1/shenghuo is gone" },
  { name: "path gains a trailing slash", patch: [{ op: "move", from: "/paths/~1api~1v1~1feed", path: "/paths/~1api~1v1~1feed~1" }], want: "breaking", why: "another URL" },
  { name: "optional request body added", patch: [{ op: "add", path: `${SEARCH}/requestBody`, value: { required: false, content: { "application/json": { schema: { type: "object" } } } } }], want: "info", why: "clients that send none are served" },
  { name: "required request body added", patch: [{ op: "add", path: `${SEARCH}/requestBody`, value: { required: true, content: { "application/json": { schema: { type: "object" } } } } }], want: "breaking", why: "every call lacks the body" },
  { name: "response type constraint dropped from an object", patch: [{ op: "remove", path: `${S}/ActivityCategory/type` }], want: "breaking", why: "a category may arrive as something other than an object" },
  { name: "response minLength dropped", patch: [{ op: "remove", path: `${S}/Activity/properties/name/minLength` }], want: "breaking", why: "empty names may arrive" },
  { name: "response maxLength added", patch: [{ op: "add", path: `${S}/Alert/properties/title/maxLength`, value: 500 }], want: "info", why: "a promise about what arrives" },
  { name: "response date format changed", patch: [{ op: "add", path: `${S}/Activity/properties/start_time/format`, value: "date" }, { op: "replace", path: `${S}/Activity/properties/start_time/format`, value: "date-time" }], want: "info", why: "a format added on a field that had none narrows what clients read" },
  { name: "response enum removed entirely", patch: [{ op: "remove", path: `${S}/Problem/properties/errors/items/properties/in/enum` }], want: "warning", why: "errors[].in may be any text (an enum growing, decided a warning)" },
  { name: "response const written as a one-value enum", patch: [{ op: "replace", path: `${S}/ZdmItem/properties/type`, value: { type: "string", enum: ["smzdm"] } }], want: "none", why: "const smzdm is enum [smzdm]" },
  { name: "response field's two types written as oneOf", patch: [{ op: "replace", path: `${S}/Alert/properties/comments`, value: { oneOf: [{ type: "integer", minimum: 0 }, { type: "string" }] } }], want: "breaking", why: "comments may arrive as a string" },
  { name: "request enum narrowed through allOf", patch: [{ op: "replace", path: `${P}/RssCate/schema`, value: { allOf: [{ $ref: "#/components/schemas/CategoryRef" }, { enum: ["all", "weibo", "haodan"] }] } }], want: "breaking", why: "rss?cate=douban is refused" },
  { name: "request parameter made nullable", patch: [{ op: "replace", path: `${P}/RssTag/schema/type`, value: ["string", "null"] }], want: "info", why: "accepts more" },
  { name: "response field deprecated", patch: [{ op: "add", path: `${S}/Alert/properties/shorttime/deprecated`, value: true }], want: "info", why: "still sent" },
  { name: "response $ref with a description sibling", patch: [{ op: "replace", path: `${S}/SearchResponse/properties/meta/properties/price_scope`, value: { $ref: "#/components/schemas/PriceScope", description: "Which categories carry prices." } }], want: "info", why: "OAS 3.1 $ref siblings: documentation" },
  { name: "problem media type replaced by plain JSON", patch: [{ op: "move", from: `${R}/Unauthorized/content/application~1problem+json`, path: `${R}/Unauthorized/content/application~1json` }], want: "breaking", why: "clients dispatch on application/problem+json" },
  { name: "Retry-After may be zero", patch: [{ op: "replace", path: `${H}/Retry-After/schema/minimum`, value: 0 }], want: "breaking", why: "a 0 makes clients retry at once, which the doc forbids" },
  { name: "Cache-Control header removed from the personal 200", patch: [{ op: "remove", path: `${FOLLOW}/responses/200/headers/Cache-Control` }], want: "breaking", why: "a documented header clients (and caches) read" },
  { name: "rate-limit headers listed in another order", patch: [{ op: "replace", path: "/x-rate-limit/headers", value: ["RateLimit-Reset", "RateLimit-Limit", "RateLimit-Remaining"] }], want: "none", why: "the same set" },
  { name: "CORS exposed header renamed", patch: [{ op: "replace", path: "/x-cors/expose_headers/0", value: "Retry-After-Ms" }], want: "breaking", why: "browsers cannot read Retry-After" },
  { name: "rank timezone changed", patch: [{ op: "replace", path: "/x-rank-windows/timezone", value: "UTC" }], want: "breaking", why: "jintian means another day" },
  { name: "rank window label changed", patch: [{ op: "replace", path: "/x-rank-windows/windows/jintian/label", value: "今日" }], want: "info", why: "display text" },
  { name: "new rank window", patch: [{ op: "add", path: "/x-rank-windows/windows/sanshitian", value: { label: "三十天", kind: "rolling", hours: 720 } }], want: "info", why: "a new window (the act enum is untouched)" },
  { name: "category alias changed", patch: [{ op: "replace", path: "/x-categories/items/1/alias", value: "xinzuan" }], want: "breaking", why: "cate=xinzuanba finds nothing" },
  { name: "new problem type", patch: [{ op: "add", path: "/x-problem-types/gone", value: { status: 410, title: "Gone", detail: "No longer served." } }], want: "info", why: "a new type in the catalogue" },
  { name: "x-words trim turned off", patch: [{ op: "replace", path: `${P}/ShenghuoQ/x-words/trim`, value: false }], want: "breaking", why: "' 外卖' no longer matches 外卖" },
  { name: "x-words match made case-sensitive", patch: [{ op: "replace", path: `${P}/RssQ/x-words/match`, value: "substring" }], want: "breaking", why: "'JD' no longer finds 'jd'" },
  { name: "rate-limit prose edited", patch: [{ op: "replace", path: "/x-rate-limit/counting", value: "Every answered request counts except 429s and OPTIONS." }], want: "info", why: "documentation" },
  { name: "omission threshold moved", patch: [{ op: "replace", path: `${RANK}/x-conformance/0/when/query/limit/lte`, value: 40 }, { op: "replace", path: `${RANK}/x-conformance/1/when/query/limit/gt`, value: 40 }], want: "breaking", why: "limit 45 now carries content" },
  { name: "refusing rule narrowed to refuse less", patch: [{ op: "replace", path: `${FEED}/x-conformance/8/when`, value: { query: { type: { eq: "zdm" }, cate: { ne: "all" } } } }], want: "breaking", why: "a changed rule is breaking until a reviewer accepts it (README Limitations)" },
  { name: "servers base URL default changed", patch: [{ op: "replace", path: "/servers/0/variables/base_url/default", value: "http://127.0.0.1:9090" }], want: "warning", why: "clients that use the default base URL move" },
  { name: "info.version bumped", patch: [{ op: "replace", path: "/info/version", value: "1.2.0" }], want: "info", why: "a release label" },
  { name: "operation tags changed", patch: [{ op: "replace", path: `${RSS}/tags`, value: ["rss", "feed"] }], want: "info", why: "documentation" },
];
