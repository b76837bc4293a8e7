import { type At, type Collector, isObject, type Json, same, show } from "./context.ts";

/**
 * Where clients send requests. A client resolves the first server's URL template (variables at
 * their defaults unless it sets them) and appends the path. A template that resolves elsewhere
 * (another host, or a fixed segment such as `/v1compat` that every implementation now serves
 * under) moves every request it covers: `server-url-moved`. A variable's default alone, or the
 * servers after the first, change only what clients that use those defaults or alternatives meet:
 * `servers-changed`, a warning. Descriptions are documentation.
 */
export function compareServers(c: Collector, b: unknown, h: unknown, at: At, what: string): void {
  if (same(b, h)) return;
  if (same(withoutDescriptions(b), withoutDescriptions(h))) {
    c.add("documentation-changed", at, `${what} descriptions changed`);
    return;
  }
  const [fb, fh] = [first(b), first(h)];
  const templateMoved = normalized(fb.url) !== normalized(fh.url);
  if (templateMoved && normalized(resolved(fb)) !== normalized(resolved(fh))) {
    c.add(
      "server-url-moved",
      at,
      `${what} URL ${show(fb.url)} → ${show(fh.url)}: every request it covers moves`,
    );
    return;
  }
  c.add("servers-changed", at, `${what} changed`);
}

/**
 * The servers an operation is called on: its own, else its path item's, else the document's
 * (OpenAPI 3.1 §4.8.10, §4.8.9). Undefined when neither the operation nor its path states any:
 * the document's list is then compared once, at the root.
 */
export function overriddenServers(item: Json, op: Json): unknown {
  return op.servers ?? item.servers;
}

/** With no servers at all, OpenAPI's default is a single server at `/`. */
function first(list: unknown): Json {
  const s = Array.isArray(list) ? list[0] : undefined;
  return isObject(s) ? s : { url: "/" };
}

function resolved(server: Json): string {
  const vars = isObject(server.variables) ? server.variables : {};
  return String(server.url ?? "/").replace(/\{([^}]+)\}/g, (all, name: string) => {
    const v = vars[name];
    return isObject(v) && v.default !== undefined ? String(v.default) : all;
  });
}

/** A trailing slash adds nothing: paths start with one. */
function normalized(url: unknown): string {
  return String(url ?? "/").replace(/\/+$/, "");
}

/** Servers with their (and their variables') descriptions dropped: what a client's base URL depends on. */
function withoutDescriptions(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutDescriptions);
  if (v === null || typeof v !== "object") return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => k !== "description")
      .map(([k, x]) => [k, withoutDescriptions(x)]),
  );
}
