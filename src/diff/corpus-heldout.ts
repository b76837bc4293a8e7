/**
 * The held-out batch of round five: edits written before any fix they led to, aimed at the weak
 * spots measured from outside (compositions in requests and responses, a default inside a
 * composition, one constraint respelled with another keyword, per-operation and path-level
 * servers) and at their safe twins. Kept apart from corpus-cases.ts so its score, before and after
 * the fixes, measures the diff on edits it was not tuned on; `corpus-heldout.test.ts` reports it.
 */
import type { CorpusCase } from "./corpus.ts";

const S = "/components/schemas";
const P = "/components/parameters";
const H = "/components/headers";
/** The pointer of an operation: `op("/api/v1/rank")` is `/paths/~1api~1v1~1rank/get`. */
const op = (path: string, method = "get") =>
  `/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}/${method}`;
const pathItem = (path: string) => `/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}`;
const SEARCH = op("/api/v1/search");
const LEGACY = op("/plus/json/rank/{act}.json");
/** The document's own server, as an override restates it. */
const SAME_SERVER = {
  url: "{base_url}",
  variables: { base_url: { default: "http://127.0.0.1:8080" } },
};

// biome-ignore format: a corpus reads best one case per line
export const HELDOUT: CorpusCase[] = [
  // --- request compositions: what a client may send, as a set over the branches.
  { name: "request limit as oneOf of overlapping ranges", patch: [{ op: "replace", path: `${P}/RankLimit/schema`, value: { oneOf: [{ type: "integer", minimum: 1, maximum: 300 }, { type: "integer", minimum: 1, maximum: 50 }], default: 20 } }], want: "breaking", why: "limit=20 matches both branches of a oneOf: refused" },
  { name: "request page bound replaced by anyOf of constants", patch: [{ op: "replace", path: `${P}/Page/schema`, value: { anyOf: [{ const: 1 }, { const: 2 }, { const: 3 }], default: 1 } }], want: "breaking", why: "page=4 was served and is now refused" },
  { name: "request personal limit restricted to three constants", patch: [{ op: "replace", path: `${P}/PersonalLimit/schema`, value: { anyOf: [{ type: "integer", const: 10 }, { type: "integer", const: 20 }, { type: "integer", const: 50 }], default: 20 } }], want: "breaking", why: "limit=15 is refused" },
  { name: "request enum and pattern branches overlap in a oneOf", patch: [{ op: "replace", path: `${P}/FeedType/schema`, value: { oneOf: [{ type: "string", enum: ["zdm"] }, { type: "string", pattern: "^z" }] } }], want: "breaking", why: "type=zdm matches both branches: refused" },
  { name: "request page size split with a gap", patch: [{ op: "replace", path: `${P}/ShenghuoPageSize/schema`, value: { anyOf: [{ type: "integer", minimum: 1, maximum: 40 }, { type: "integer", minimum: 60, maximum: 100 }], default: 20 } }], want: "breaking", why: "pageSize=50 is refused" },
  { name: "request category restricted to an anyOf of constants", patch: [{ op: "replace", path: `${P}/SearchCate/schema`, value: { anyOf: [{ const: "all" }, { const: "weibo" }, { const: "10" }], default: "all" } }], want: "breaking", why: "cate=douban is refused in search" },
  { name: "request limit given a multipleOf through allOf", patch: [{ op: "replace", path: `${P}/PersonalLimit/schema`, value: { allOf: [{ type: "integer", minimum: 1, maximum: 50 }, { multipleOf: 10 }], default: 20 } }], want: "breaking", why: "limit=15 is refused" },
  { name: "request query forbids a separator through allOf", patch: [{ op: "replace", path: `${P}/SearchQ/schema`, value: { allOf: [{ type: "string", maxLength: 200 }, { pattern: "^[^#]*$" }] } }], want: "breaking", why: "q=a#b is refused" },
  { name: "request activity category split into two patterns", patch: [{ op: "replace", path: `${P}/ShenghuoCate/schema`, value: { anyOf: [{ type: "string", pattern: "^[a-z]{1,32}$" }, { type: "string", pattern: "^[0-9_-]{1,32}$" }] } }], want: "breaking", why: "cate=a1 matched the old pattern and neither branch" },
  { name: "request tag oneOf with a branch inside the other", patch: [{ op: "replace", path: `${P}/RssTag/schema`, value: { oneOf: [{ type: "string", minLength: 1, maxLength: 50 }, { type: "string", const: "hot" }] } }], want: "breaking", why: "tag=hot matches both branches: refused" },
  { name: "request enum rewritten as a pattern that loses a value", patch: [{ op: "replace", path: `${P}/ShenghuoWithCates/schema`, value: { type: "string", pattern: "^(1|true)$", default: "0" } }], want: "breaking", why: "with_cates=0 is refused" },
  { name: "request default changed inside an allOf", patch: [{ op: "replace", path: `${P}/FeedLimit/schema`, value: { allOf: [{ type: "integer", minimum: 1, maximum: 50 }, { default: 10 }] } }], want: "breaking", why: "a call without limit now gets 10 items" },
  { name: "request anyOf of overlapping ranges covering the old one", patch: [{ op: "replace", path: `${P}/SearchMip/schema`, value: { anyOf: [{ type: "number", minimum: 0, maximum: 1000 }, { type: "number", minimum: 500, maximum: 1000000 }] } }], want: "none", why: "the union is 0..1000000, as before" },
  { name: "request page as oneOf of disjoint halves", patch: [{ op: "replace", path: `${P}/Page/schema`, value: { oneOf: [{ type: "integer", minimum: 1, maximum: 500 }, { type: "integer", minimum: 501, maximum: 1000 }], default: 1 } }], want: "none", why: "each page 1..1000 matches exactly one branch" },
  { name: "request one-value enum as an anyOf of one const", patch: [{ op: "replace", path: `${P}/FeedType/schema`, value: { anyOf: [{ type: "string", const: "zdm" }] } }], want: "none", why: "the same single value" },
  { name: "request two-value enum as an anyOf of constants", patch: [{ op: "replace", path: `${P}/ShenghuoWithCates/schema`, value: { anyOf: [{ type: "string", const: "0" }, { type: "string", const: "1" }], default: "0" } }], want: "none", why: "the same two values, the same default" },
  { name: "request tag anyOf with a redundant branch", patch: [{ op: "replace", path: `${P}/RssTag/schema`, value: { anyOf: [{ type: "string", minLength: 1, maxLength: 50 }, { type: "string", const: "hot" }] } }], want: "none", why: "hot was accepted already" },
  { name: "request uid as a single-branch anyOf", patch: [{ op: "replace", path: `${P}/Uid/schema`, value: { anyOf: [{ type: "integer", minimum: 1, maximum: 999999999 }] } }], want: "none", why: "anyOf of one schema is that schema" },

  // --- defaults inside compositions.
  { name: "request default moved inside a single allOf part", patch: [{ op: "replace", path: `${P}/RankLimit/schema`, value: { allOf: [{ type: "integer", minimum: 1, maximum: 300, default: 20 }] } }], want: "none", why: "the same range and the same default" },
  { name: "request default moved inside an anyOf branch", patch: [{ op: "replace", path: `${P}/FeedLimit/schema`, value: { anyOf: [{ type: "integer", minimum: 1, maximum: 50, default: 20 }] } }], want: "none", why: "the same range and the same default" },
  { name: "response default annotation inside an allOf", patch: [{ op: "replace", path: `${S}/FeedResponse/properties/meta/properties/retention`, value: { allOf: [{ type: "integer", minimum: 1 }], default: 20, description: "Items this stream keeps (20 or 30)." } }], want: "info", why: "a response default is an annotation" },

  // --- response compositions: what a client may read, as a set over the branches.
  { name: "response price split into integer and number branches", patch: [{ op: "replace", path: `${S}/Alert/properties/price`, value: { anyOf: [{ type: "integer", minimum: 0 }, { type: "number", minimum: 0 }], description: "Price in yuan; only on priced categories." } }], want: "none", why: "the union is every number >= 0, as before" },
  { name: "response status split into client and server ranges", patch: [{ op: "replace", path: `${S}/Problem/properties/status`, value: { anyOf: [{ type: "integer", minimum: 400, maximum: 499 }, { type: "integer", minimum: 500, maximum: 599 }] } }], want: "none", why: "400..599 either way" },
  { name: "response status split, the upper range grown", patch: [{ op: "replace", path: `${S}/Problem/properties/status`, value: { anyOf: [{ type: "integer", minimum: 400, maximum: 499 }, { type: "integer", minimum: 500, maximum: 699 }] } }], want: "breaking", why: "a status 650 may arrive" },
  { name: "response comments may be fractional through anyOf", patch: [{ op: "replace", path: `${S}/Alert/properties/comments`, value: { anyOf: [{ type: "integer", minimum: 0 }, { type: "number", minimum: 0 }] } }], want: "breaking", why: "comments 1.5 may arrive where clients parse an integer" },
  { name: "response price may go negative through an anyOf branch", patch: [{ op: "replace", path: `${S}/ZdmItem/properties/price`, value: { anyOf: [{ type: "integer", minimum: 0 }, { type: "number", minimum: -1 }] } }], want: "breaking", why: "a price of -0.5 may arrive" },
  { name: "response price as oneOf of overlapping branches", patch: [{ op: "replace", path: `${S}/ZdmItem/properties/price`, value: { oneOf: [{ type: "integer", minimum: 0 }, { type: "number", minimum: 0 }] } }], want: "info", why: "a whole price matches both branches, so only fractional prices remain: narrower" },
  { name: "response const widened through an anyOf of constants", patch: [{ op: "replace", path: `${S}/ZdmItem/properties/type`, value: { anyOf: [{ const: "smzdm" }, { const: "zdm" }] } }], want: "breaking", why: "items with type zdm cannot be routed" },
  { name: "response enum as an anyOf of its constants", patch: [{ op: "replace", path: `${S}/Problem/properties/errors/items/properties/in`, value: { anyOf: [{ const: "query" }, { const: "path" }, { const: "header" }] } }], want: "none", why: "the same three values" },
  { name: "response const as an allOf of a type and the const", patch: [{ op: "replace", path: `${S}/RankResponse/properties/meta/properties/window/properties/timezone`, value: { allOf: [{ type: "string" }, { const: "Asia/Shanghai" }] } }], want: "none", why: "the same single value" },
  { name: "response nullable type list as anyOf", patch: [{ op: "replace", path: `${S}/ShenghuoResponse/properties/meta/properties/cate`, value: { anyOf: [{ type: "string" }, { type: "null" }] } }], want: "none", why: "type [string, null] is anyOf [string, null]" },
  { name: "response count made nullable through a nested anyOf", patch: [{ op: "replace", path: `${S}/ActivityCategory/properties/count`, value: { anyOf: [{ type: "integer", minimum: 0 }, { anyOf: [{ type: "null" }] }] } }], want: "breaking", why: "count may be null" },
  { name: "response header may be text through anyOf", patch: [{ op: "replace", path: `${H}/RateLimit-Remaining/schema`, value: { anyOf: [{ type: "integer", minimum: 0 }, { type: "string" }] } }], want: "breaking", why: "clients parse an integer" },
  { name: "response Retry-After split at a minute", patch: [{ op: "replace", path: `${H}/Retry-After/schema`, value: { oneOf: [{ type: "integer", minimum: 1, maximum: 60 }, { type: "integer", minimum: 61 }] } }], want: "none", why: "every integer >= 1 matches exactly one branch" },
  { name: "response count gains a string type", patch: [{ op: "replace", path: `${S}/RankResponse/properties/meta/properties/count/type`, value: ["integer", "string"] }], want: "breaking", why: "count may arrive as a string" },

  // --- one constraint respelled with another keyword.
  { name: "request one-value enum as an anchored pattern", patch: [{ op: "replace", path: `${P}/FeedType/schema`, value: { type: "string", pattern: "^zdm$" } }], want: "none", why: "only zdm matches, as before" },
  { name: "request two-value enum as an alternation pattern", patch: [{ op: "replace", path: `${P}/ShenghuoWithCates/schema`, value: { type: "string", pattern: "^(0|1)$", default: "0" } }], want: "none", why: "0 and 1 only, as before" },
  { name: "request enum as a pattern that adds a value", patch: [{ op: "replace", path: `${P}/FeedType/schema`, value: { type: "string", pattern: "^(zdm|hot)$" } }], want: "info", why: "type=hot accepted too" },
  { name: "response enum as an equivalent alternation pattern", patch: [{ op: "replace", path: `${S}/Problem/properties/errors/items/properties/in`, value: { type: "string", pattern: "^(query|path|header)$" } }], want: "none", why: "the same three values" },
  { name: "response enum as a pattern that adds a value", patch: [{ op: "replace", path: `${S}/Problem/properties/errors/items/properties/in`, value: { type: "string", pattern: "^(query|path|header|cookie)$" } }], want: "warning", why: "a response value clients have not seen: enum growth, a warning" },
  { name: "required parameter made optional with a default", patch: [{ op: "replace", path: `${P}/RankAct/required`, value: false }, { op: "replace", path: `${P}/RankAct/schema`, value: { $ref: "#/components/schemas/RankAct", default: "jintian" } }], want: "info", why: "every old client sends act; calls without it are new" },
  { name: "request scalar becomes a one-value list, same wire form", patch: [{ op: "replace", path: `${P}/RssTag/schema`, value: { type: "array", maxItems: 1, items: { type: "string", minLength: 1, maxLength: 50 } } }], want: "info", why: "tag=x is written and read the same (form, explode)" },
  { name: "response scalar becomes a one-value list", patch: [{ op: "replace", path: `${S}/ZdmItem/properties/mall_name`, value: { type: "array", maxItems: 1, items: { type: "string" } } }], want: "breaking", why: "JSON clients read a string, get an array" },

  // --- servers on a path or an operation.
  { name: "search moved to another host by an operation servers override", patch: [{ op: "add", path: `${SEARCH}/servers`, value: [{ url: "https://search.example.com" }] }], want: "breaking", why: "clients call {base_url}/api/v1/search" },
  { name: "RSS path moved under a prefix by a path-level servers override", patch: [{ op: "add", path: `${pathItem("/rss.php")}/servers`, value: [{ url: "{base_url}/legacy", variables: { base_url: { default: "http://127.0.0.1:8080" } } }] }], want: "breaking", why: "/rss.php is now /legacy/rss.php" },
  { name: "legacy file moved by an operation servers override", patch: [{ op: "add", path: `${LEGACY}/servers`, value: [{ url: "https://static.example.com" }] }], want: "breaking", why: "scripts fetch the file from the API's host" },
  { name: "operation servers override restating the document's server", patch: [{ op: "add", path: `${SEARCH}/servers`, value: [SAME_SERVER] }], want: "none", why: "the same URL" },
  { name: "operation servers override adding a mirror after the same server", patch: [{ op: "add", path: `${SEARCH}/servers`, value: [SAME_SERVER, { url: "https://mirror.example.com" }] }], want: "warning", why: "the first server is unchanged; a mirror is offered" },
];
