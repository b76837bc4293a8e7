import { describe, expect, it } from "vitest";
import { diffDocuments } from "./diff.ts";
import { type Doc, diffEdit, get, rulesOf, spec, TODAY } from "./testing.ts";

type Case = [string, { given: (d: Doc) => void; want: string[] }];

const ok200 = (d: Doc, path: string) => get(d, path).responses["200"];

/** Paths, operations, responses, headers, media types and security. */
// biome-ignore format: a table reads best one case per line
const operations: Case[] = [
  ["path removed (outside /api/v1)", { given: (d) => delete d.paths["/rss.php"], want: ["path-removed"] }],
  ["v1 path removed, no successor published", { given: (d) => delete d.paths["/api/v1/my/push"], want: ["path-removed"] }],
  ["operation removed", { given: (d) => { d.paths["/api/v1/meta"] = { post: get(d, "/api/v1/meta") }; }, want: ["operation-added", "operation-removed"] }],
  ["path added", { given: (d) => { d.paths["/api/v1/hot"] = { get: { ...structuredClone(get(d, "/api/v1/meta")), operationId: "getHot" } }; }, want: ["path-added"] }],
  ["path parameter renamed (same route)", { given: (d) => { d.paths["/plus/json/rank/{window}.json"] = d.paths["/plus/json/rank/{act}.json"]; delete d.paths["/plus/json/rank/{act}.json"]; d.paths["/plus/json/rank/{window}.json"].get.parameters = [{ ...d.components.parameters.LegacyRankAct, name: "window" }]; }, want: ["documentation-changed"] }],
  ["error status removed", { given: (d) => delete get(d, "/api/v1/rank").responses["400"], want: ["response-error-status-removed"] }],
  ["success status replaced", { given: (d) => { const op = get(d, "/api/v1/meta"); op.responses["203"] = op.responses["200"]; delete op.responses["200"]; }, want: ["response-status-added", "response-status-removed"] }],
  ["redirect added to the legacy file", { given: (d) => { get(d, "/plus/json/rank/{act}.json").responses["301"] = { description: "Moved to /api/v1/rank." }; }, want: ["response-redirect-added"] }],
  ["status added", { given: (d) => { get(d, "/api/v1/rank").responses["404"] = { description: "Nothing here." }; }, want: ["response-status-added"] }],
  ["Retry-After removed", { given: (d) => delete d.components.responses.TooManyRequests.headers["Retry-After"], want: ["response-header-removed"] }],
  ["RateLimit-Remaining removed from one operation", { given: (d) => delete ok200(d, "/api/v1/rank").headers["RateLimit-Remaining"], want: ["response-header-removed"] }],
  ["header renamed in case only", { given: (d) => { const h = ok200(d, "/api/v1/rank").headers; h["ratelimit-limit"] = h["RateLimit-Limit"]; delete h["RateLimit-Limit"]; }, want: [] }],
  ["Retry-After became optional", { given: (d) => { d.components.headers["Retry-After"].required = false; }, want: ["response-header-became-optional"] }],
  ["header schema widened", { given: (d) => { d.components.headers["Retry-After"].schema.minimum = 0; }, want: ["response-bound-widened"] }],
  ["header added", { given: (d) => { ok200(d, "/api/v1/rank").headers["X-Request-Id"] = { schema: { type: "string" } }; }, want: ["response-header-added"] }],
  ["response media type removed", { given: (d) => { const c = ok200(d, "/rss.php").content; c["application/xml"] = c["application/rss+xml"]; delete c["application/rss+xml"]; }, want: ["response-media-type-added", "response-media-type-removed"] }],
  ["problem media type removed", { given: (d) => { const c = d.components.responses.BadRequest.content; c["application/json"] = c["application/problem+json"]; delete c["application/problem+json"]; }, want: ["response-media-type-added", "response-media-type-removed"] }],
  // A parameter on the same media type is no removal (oasdiff agrees); a charset that decodes differently is.
  ["charset stated on application/json", { given: (d) => { const c = ok200(d, "/api/v1/rank").content; c["application/json; charset=utf-8"] = c["application/json"]; delete c["application/json"]; }, want: ["media-type-parameters-changed"] }],
  ["charset stated on the problem type, written in capitals", { given: (d) => { const c = d.components.responses.BadRequest.content; c["application/problem+json; Charset=\"UTF-8\""] = c["application/problem+json"]; delete c["application/problem+json"]; }, want: ["media-type-parameters-changed"] }],
  ["charset gbk stated on application/json", { given: (d) => { const c = ok200(d, "/api/v1/rank").content; c["application/json; charset=gbk"] = c["application/json"]; delete c["application/json"]; }, want: ["response-media-type-added", "response-media-type-removed"] }],
  ["charset stated, with a field removed inside", { given: (d) => { const c = ok200(d, "/api/v1/meta").content; c["application/json; charset=utf-8"] = c["application/json"]; delete c["application/json"]; delete d.components.schemas.MetaResponse.properties.data.properties.limits; }, want: ["media-type-parameters-changed", "response-field-removed"] }],
  ["response media type added", { given: (d) => { ok200(d, "/api/v1/rank").content["application/x-ndjson"] = { schema: { type: "string" } }; }, want: ["response-media-type-added"] }],
  ["security added to a public operation", { given: (d) => { get(d, "/api/v1/rank").security = [{ ApiKeyHeader: [] }]; }, want: ["security-added"] }],
  ["security added by the document default", { given: (d) => { d.security = [{ ApiKeyHeader: [] }]; delete get(d, "/api/v1/meta").security; }, want: ["security-added"] }],
  ["security removed", { given: (d) => { get(d, "/api/v1/my/follow").security = []; }, want: ["security-removed"] }],
  ["security alternative dropped", { given: (d) => { d.components.securitySchemes.Bearer = { type: "http", scheme: "bearer" }; get(d, "/api/v1/my/follow").security = [{ Bearer: [] }]; }, want: ["security-changed"] }],
  ["security alternative added", { given: (d) => { d.components.securitySchemes.Bearer = { type: "http", scheme: "bearer" }; get(d, "/api/v1/my/follow").security.push({ Bearer: [] }); }, want: ["documentation-changed"] }],
  ["API key header renamed", { given: (d) => { d.components.securitySchemes.ApiKeyHeader.name = "X-Key"; }, want: ["security-scheme-changed"] }],
  ["operation deprecated", { given: (d) => { get(d, "/plus/json/rank/{act}.json").deprecated = true; }, want: ["operation-deprecated"] }],
  ["operationId changed", { given: (d) => { get(d, "/api/v1/rank").operationId = "rank"; }, want: ["operation-id-on-wire-changed"] }],
  ["summary changed", { given: (d) => { get(d, "/api/v1/rank").summary = "Rank"; }, want: ["documentation-changed"] }],
  ["tags changed", { given: (d) => { get(d, "/api/v1/rank").tags = ["alerts"]; }, want: ["documentation-changed"] }],
  ["response description changed", { given: (d) => { ok200(d, "/api/v1/feed").description = "The feed."; }, want: ["documentation-changed"] }],
  ["info description changed", { given: (d) => { d.info.description = "Shorter."; }, want: ["documentation-changed"] }],
  ["server URL changed", { given: (d) => { d.servers[0].variables.base_url.default = "http://127.0.0.1:9090"; }, want: ["servers-changed"] }],
  ["unknown extension added", { given: (d) => { get(d, "/api/v1/rank")["x-cache"] = { seconds: 60 }; }, want: ["unclassified-change"] }],
];

describe("operations, responses and security", () => {
  it.each(operations)("%s", async (_, { given, want }) => {
    expect(rulesOf(await diffEdit(given))).toEqual([...want].sort());
  });

  it("judges a request body by direction", async () => {
    const body = (media: Record<string, unknown>, required = false) => ({ required, content: media });
    const post = (d: Doc, requestBody: unknown) => {
      d.paths["/api/v1/meta"].post = {
        operationId: "postMeta",
        requestBody,
        responses: { "204": { description: "ok" } },
      };
    };
    const json = {
      "application/json": { schema: { type: "object", properties: { a: { type: "string" } } } },
    };
    const text = { "text/plain": { schema: { type: "string" } } };
    const { diffDocuments } = await import("./diff.ts");
    const { spec } = await import("./testing.ts");
    const base = spec();
    post(base, body({ ...json, ...text }));
    const cases: [unknown, string[]][] = [
      [body(json), ["request-media-type-removed"]],
      [body({ ...json, ...text }, true), ["request-body-became-required"]],
      [
        body({
          "application/json": {
            schema: {
              type: "object",
              required: ["b"],
              properties: { a: { type: "string" }, b: { type: "string" } },
            },
          },
          ...text,
        }),
        ["request-property-added-required"],
      ],
      [
        body({ "application/json": { schema: { type: "object", properties: {} } }, ...text }),
        ["request-property-removed"],
      ],
    ];
    for (const [requestBody, want] of cases) {
      const head = spec();
      post(head, requestBody);
      const r = await diffDocuments({ label: "b", raw: base }, { label: "h", raw: head });
      expect(rulesOf(r)).toEqual(want);
    }
  });
});

describe("operationId on the wire", () => {
  it("a rename is a warning where no answer is keyed by operationId (generated method names only)", async () => {
    const base = spec();
    delete base.components.schemas.MetaResponse.properties.data.properties.limits.description;
    delete base.components.examples.MetaManifest.value.data.limits;
    const head = structuredClone(base);
    get(head, "/api/v1/rank").operationId = "rank";
    const r = await diffDocuments(
      { label: "base", raw: base },
      { label: "head", raw: head },
      { today: TODAY },
    );
    expect(rulesOf(r)).toEqual(["operation-id-changed"]);
  });
});
