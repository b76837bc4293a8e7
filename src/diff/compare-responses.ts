import { compareSchema } from "./compare-schema.ts";
import { type At, type Collector, compareRest, type Direction, down, type Json, obj } from "./context.ts";
import { pairMediaTypes } from "./media-types.ts";

/** Statuses a client follows to another URL on its own. */
const REDIRECTS = new Set(["301", "302", "303", "307", "308"]);

/** Responses by status, then their headers and media types. */
export function compareResponses(c: Collector, bRaw: unknown, hRaw: unknown, at: At): void {
  const b = obj(bRaw);
  const h = obj(hRaw);
  for (const status of Object.keys(b)) {
    const where = down(at, status);
    if (!(status in h)) {
      // An error no longer documented: the requests that got it are served or answered otherwise
      // (the API accepts more, as when a refusing rule goes); a reviewer should look. A success or
      // redirect status gone changes the answer clients read: breaking.
      const error = /^([45]|default)/i.test(status);
      c.add(
        error ? "response-error-status-removed" : "response-status-removed",
        where,
        `response ${status} removed`,
        "base",
      );
      continue;
    }
    compareResponse(c, obj(b[status]), obj(h[status]), { ...where, field: status });
  }
  for (const status of Object.keys(h)) {
    if (status in b) continue;
    // Fetch, curl -L and RSSHub follow a redirect without asking: the client then reads the
    // target's body as this operation's, and nothing promises the two agree.
    if (REDIRECTS.has(status))
      c.add(
        "response-redirect-added",
        down(at, status),
        `response ${status} added: clients now read the target's body`,
      );
    else c.add("response-status-added", down(at, status), `response ${status} added`);
  }
}

function compareResponse(c: Collector, b: Json, h: Json, at: At): void {
  compareHeaders(c, obj(b.headers), obj(h.headers), down(at, "headers"));
  compareContent(c, obj(b.content), obj(h.content), down(at, "content"), "response");
  compareRest(c, b, h, at, new Set(["headers", "content"]));
}

function compareHeaders(c: Collector, b: Json, h: Json, at: At): void {
  // Header names are case-insensitive: pair them so, report them as written.
  const byLower = (o: Json) => new Map(Object.keys(o).map((k) => [k.toLowerCase(), k]));
  const hb = byLower(b);
  const hh = byLower(h);
  for (const [lower, name] of hb) {
    const headName = hh.get(lower);
    const where: At = {
      ...at,
      base: [...at.base, name],
      head: [...at.head, headName ?? name],
      field: `${at.field} header ${name}`,
    };
    if (headName === undefined) {
      c.add("response-header-removed", where, `${at.field} header ${name} removed`, "base");
      continue;
    }
    const vb = obj(b[name]);
    const vh = obj(h[headName]);
    if (vb.required === true && vh.required !== true) {
      c.add(
        "response-header-became-optional",
        down(where, "required"),
        `${where.field} is no longer required`,
      );
    }
    compareSchema(c, vb.schema, vh.schema, down(where, "schema"), "response");
    compareRest(c, vb, vh, where, new Set(["required", "schema"]));
  }
  for (const [lower, name] of hh) {
    if (!hb.has(lower)) c.add("response-header-added", down(at, name), `${at.field} header ${name} added`);
  }
}

export function compareContent(c: Collector, b: Json, h: Json, at: At, dir: Direction): void {
  const { pairs, removed, added } = pairMediaTypes(Object.keys(b), Object.keys(h));
  for (const media of removed) {
    c.add(
      dir === "response" ? "response-media-type-removed" : "request-media-type-removed",
      { ...down(at, media), field: `${at.field ?? dir} ${media} body` },
      `${at.field ?? dir} ${media} removed`,
      "base",
    );
  }
  for (const [bMedia, hMedia] of pairs) {
    const where: At = {
      ...at,
      base: [...at.base, bMedia],
      head: [...at.head, hMedia],
      field: `${at.field ?? dir} ${bMedia} body`,
    };
    if (bMedia !== hMedia)
      c.add(
        "media-type-parameters-changed",
        where,
        `${at.field ?? dir} ${bMedia} → ${hMedia}: the same media type, written with other parameters (or case)`,
      );
    const mb = obj(b[bMedia]);
    const mh = obj(h[hMedia]);
    compareSchema(c, mb.schema, mh.schema, down(where, "schema"), dir);
    compareRest(c, mb, mh, where, new Set(["schema"]));
  }
  for (const media of added) {
    c.add(
      dir === "response" ? "response-media-type-added" : "request-media-type-added",
      down(at, media),
      `${at.field ?? dir} ${media} added`,
    );
  }
}

/** All dealkit operations are GET without a body; this covers a future body the same way. */
export function compareRequestBody(c: Collector, bRaw: unknown, hRaw: unknown, at: At): void {
  if (bRaw === undefined && hRaw === undefined) return;
  const b = obj(bRaw);
  const h = obj(hRaw);
  if (b.required !== true && h.required === true)
    c.add("request-body-became-required", down(at, "required"), "request body is now required");
  compareContent(c, obj(b.content), obj(h.content), { ...down(at, "content"), field: "request" }, "request");
  compareRest(c, b, h, at, new Set(["required", "content"]));
}
