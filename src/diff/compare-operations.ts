import { compareParameters } from "./compare-parameters.ts";
import { compareRequestBody, compareResponses } from "./compare-responses.ts";
import { compareServers, overriddenServers } from "./compare-servers.ts";
import { compareConformance, compareRelations } from "./compare-x-conformance.ts";
import {
  type At,
  type Collector,
  compareRest,
  down,
  isObject,
  type Json,
  obj,
  same,
  show,
} from "./context.ts";
import { queryParams } from "./refusal-proof.ts";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** `/plus/json/rank/{act}.json` and `/plus/json/rank/{window}.json` are the same route. */
export function routeKey(path: string): string {
  return path.replace(/\{[^}]+\}/g, "{}");
}

export interface PathPolicy {
  /** The head path a base path is expected at (identity within a major, /api/v1 → /api/v2 across). */
  counterpart(basePath: string): string;
  /** Classifies a base path with no counterpart in head. */
  removed(c: Collector, basePath: string, at: At): void;
  /** Across majors a moved path is found by its operationId; within a major a move is a removal. */
  followOperationIds?: boolean;
}

function operationIds(item: unknown): string[] {
  return METHODS.map((m) => obj(obj(item)[m]).operationId).filter(
    (id): id is string => typeof id === "string",
  );
}

export function comparePaths(c: Collector, bDoc: Json, hDoc: Json, policy: PathPolicy): void {
  const bPaths = obj(bDoc.paths);
  const hPaths = obj(hDoc.paths);
  const hByRoute = new Map(Object.keys(hPaths).map((p) => [routeKey(p), p]));
  const matched = new Set<string>();
  const expected = new Map(
    Object.keys(bPaths).map((bp) => [bp, hByRoute.get(routeKey(policy.counterpart(bp)))]),
  );
  const claimed = new Set(expected.values());
  for (const bp of Object.keys(bPaths)) {
    const ids = operationIds(bPaths[bp]);
    const moved = policy.followOperationIds
      ? Object.keys(hPaths).find(
          (p) => !claimed.has(p) && operationIds(hPaths[p]).some((id) => ids.includes(id)),
        )
      : undefined;
    const hp = expected.get(bp) ?? moved;
    const at: At = { base: ["paths", bp], head: ["paths", hp ?? bp] };
    if (hp === undefined) {
      policy.removed(c, bp, at);
      continue;
    }
    matched.add(hp);
    claimed.add(hp);
    if (hp === moved) {
      for (const m of METHODS.filter((m) => isObject(obj(bPaths[bp])[m]) && isObject(obj(hPaths[hp])[m]))) {
        const op = `${m.toUpperCase()} ${bp}`;
        c.add("path-moved", { ...down(at, m), operation: op }, `${op} moved to ${m.toUpperCase()} ${hp}`);
      }
    }
    comparePathItem(c, bDoc, hDoc, bp, hp, obj(bPaths[bp]), obj(hPaths[hp]), at);
  }
  for (const hp of Object.keys(hPaths)) {
    if (!matched.has(hp))
      c.add("path-added", { base: ["paths"], head: ["paths", hp], operation: hp }, `${hp} added`);
  }
}

function comparePathItem(
  c: Collector,
  bDoc: Json,
  hDoc: Json,
  bp: string,
  hp: string,
  b: Json,
  h: Json,
  at: At,
): void {
  for (const m of METHODS) {
    const label = `${m.toUpperCase()} ${bp}`;
    const opAt: At = { ...down(at, m), operation: label };
    if (isObject(b[m]) && !isObject(h[m])) c.add("operation-removed", opAt, `${label} removed`, "base");
    else if (!isObject(b[m]) && isObject(h[m]))
      c.add(
        "operation-added",
        { ...opAt, operation: `${m.toUpperCase()} ${hp}` },
        `${m.toUpperCase()} ${hp} added`,
      );
    else if (isObject(b[m]) && isObject(h[m])) {
      compareOperation(
        c,
        { doc: bDoc, item: b, op: b[m] as Json },
        { doc: hDoc, item: h, op: h[m] as Json },
        opAt,
        m,
      );
    }
  }
  compareRest(c, b, h, at, new Set([...METHODS, "parameters", "servers"]));
}

interface Side {
  doc: Json;
  item: Json;
  op: Json;
}

const HANDLED = new Set([
  "operationId",
  "deprecated",
  "security",
  "parameters",
  "requestBody",
  "responses",
  "x-conformance",
  "x-relations",
  "x-sunset",
  "servers",
]);

function compareOperation(c: Collector, b: Side, h: Side, at: At, method: string): void {
  if (b.op.operationId !== h.op.operationId) {
    c.add(
      onTheWire(b.doc, b.op.operationId) ? "operation-id-on-wire-changed" : "operation-id-changed",
      down(at, "operationId"),
      `operationId ${show(b.op.operationId)} → ${show(h.op.operationId)}`,
    );
  }
  if (b.op.deprecated !== true && h.op.deprecated === true)
    c.add("operation-deprecated", down(at, "deprecated"), `${at.operation} is deprecated`);
  // The date itself is judged against the 6-month rule in versioning.ts.
  if (b.op["x-sunset"] !== h.op["x-sunset"] && h.op["x-sunset"] !== undefined) {
    c.add(
      "operation-deprecated",
      down(at, "x-sunset"),
      `${at.operation} sunsets on ${show(h.op["x-sunset"])}`,
    );
  }
  if (b.op.deprecated === true && h.op.deprecated !== true)
    c.add("documentation-changed", down(at, "deprecated"), `${at.operation} is no longer deprecated`);
  compareSecurity(c, b, h, at);
  compareOperationServers(c, b, h, at);
  compareParameters(c, b, h, at, method);
  compareRequestBody(c, b.op.requestBody, h.op.requestBody, down(at, "requestBody"));
  compareResponses(c, b.op.responses, h.op.responses, down(at, "responses"));
  compareConformance(
    c,
    b.op["x-conformance"],
    h.op["x-conformance"],
    down(at, "x-conformance"),
    queryParams(h.item, h.op),
  );
  compareRelations(c, b.op["x-relations"], h.op["x-relations"], down(at, "x-relations"));
  compareRest(c, b.op, h.op, at, HANDLED);
}

/**
 * A path-level or operation-level `servers` override moves that operation's URL; the document's
 * own list is compared once at the root. The pointer is where each side's servers are written.
 */
function compareOperationServers(c: Collector, b: Side, h: Side, at: At): void {
  const ob = overriddenServers(b.item, b.op);
  const oh = overriddenServers(h.item, h.op);
  if (ob === undefined && oh === undefined) return;
  const where = (side: Side, tokens: string[]) =>
    side.op.servers !== undefined
      ? [...tokens, "servers"]
      : side.item.servers !== undefined
        ? [...tokens.slice(0, -1), "servers"]
        : ["servers"];
  compareServers(
    c,
    ob ?? b.doc.servers,
    oh ?? h.doc.servers,
    { ...at, base: where(b, at.base), head: where(h, at.head) },
    `${at.operation} servers`,
  );
}

/**
 * Whether an operationId travels in answers, not only in generated method names: the document
 * describes a map keyed by operationId (the manifest's `data.limits`: "by operationId and
 * parameter name"), or one of its examples has the id as an object key.
 */
function onTheWire(doc: Json, id: unknown): boolean {
  if (typeof id !== "string") return false;
  const seen = new Set<unknown>();
  const found = (v: unknown, inExample: boolean): boolean => {
    if (v === null || typeof v !== "object" || seen.has(v)) return false;
    seen.add(v);
    if (Array.isArray(v)) return v.some((x) => found(x, inExample));
    const node = v as Json;
    if (isObject(node.additionalProperties) && /\boperationId\b/.test(String(node.description ?? "")))
      return true;
    return Object.entries(node).some(
      ([k, x]) => (inExample && k === id) || found(x, inExample || k === "example" || k === "examples"),
    );
  };
  return found(doc, false);
}

function securityOf(side: Side): Json[] {
  const list = side.op.security ?? side.doc.security ?? [];
  return (Array.isArray(list) ? list : []).map(obj);
}

/**
 * Each alternative of a security requirement as a sorted `scheme[scopes]` string; with `doc`,
 * each scheme named by what travels (its type, location and name) instead of its component name.
 */
function alternatives(security: Json[], doc?: Json): string[] {
  return security.map((req) =>
    Object.entries(req)
      .map(
        ([name, scopes]) =>
          `${doc ? wire(doc, name) : name}[${Array.isArray(scopes) ? [...scopes].sort().join(",") : ""}]`,
      )
      .sort()
      .join("+"),
  );
}

const WIRE_KEYS = ["type", "in", "name", "scheme", "bearerFormat", "flows", "openIdConnectUrl"];

/** How a scheme's credentials travel; a scheme the document lacks keeps its name. */
function wire(doc: Json, name: string): string {
  const scheme = obj(obj(doc.components).securitySchemes)[name];
  if (!isObject(scheme)) return `name:${name}`;
  return JSON.stringify(WIRE_KEYS.map((k) => wireValue(scheme, k)));
}

/** A scheme's value for a key, a header's name in lower case (header names are case-insensitive). */
function wireValue(scheme: Json, key: string): unknown {
  const v = scheme[key] ?? null;
  return key === "name" && scheme.in === "header" && typeof v === "string" ? v.toLowerCase() : v;
}

/** The alternatives as a set, the empty one (public) left out. */
const spelled = (r: string[]) => [...new Set(r.filter((x) => x !== ""))].sort();

/**
 * Public means no requirement or an empty alternative ({}). A public operation that now needs
 * credentials, or a secured one that lost a way of authenticating, breaks clients.
 */
function compareSecurity(c: Collector, b: Side, h: Side, at: At): void {
  const sb = securityOf(b);
  const sh = securityOf(h);
  const rb = alternatives(sb);
  const rh = alternatives(sh);
  const isPublic = (r: string[]) => r.length === 0 || r.includes("");
  const where = down(at, "security");
  // An alternative is kept when one of the same name, or one sending the same credentials the
  // same way (a scheme renamed in components), remains.
  const wb = alternatives(sb, b.doc);
  const wh = alternatives(sh, h.doc);
  const lost = rb.filter((r, i) => !rh.includes(r) && !wh.includes(wb[i] as string));
  if (isPublic(rb) && !isPublic(rh))
    c.add("security-added", where, `${at.operation} now requires ${rh.join(" or ")}`);
  else if (!isPublic(rb) && isPublic(rh))
    c.add("security-removed", where, `${at.operation} no longer requires credentials`);
  else if (!isPublic(rb) && lost.length)
    c.add("security-changed", where, `${at.operation} no longer accepts ${lost.join(" or ")}`);
  // Otherwise the same operations succeed: say so when the list reads differently ([] and [{}]
  // are both public, and the order of alternatives means nothing).
  else if (!same(spelled(rb), spelled(rh)))
    c.add("documentation-changed", where, `${at.operation} security ${rb.join(" | ")} → ${rh.join(" | ")}`);
  const used = (s: Json[]) => new Set(s.flatMap((req) => Object.keys(req)));
  const inHead = used(sh);
  for (const name of used(sb)) if (inHead.has(name)) compareScheme(c, b.doc, h.doc, name, at);
}

/** A scheme both sides use: its type, location and name are how clients send credentials. */
function compareScheme(c: Collector, bDoc: Json, hDoc: Json, name: string, at: At): void {
  const sb = obj(obj(obj(bDoc.components).securitySchemes)[name]);
  const sh = obj(obj(obj(hDoc.components).securitySchemes)[name]);
  for (const key of WIRE_KEYS) {
    if (same(wireValue(sb, key), wireValue(sh, key))) continue;
    const where: At = {
      ...at,
      base: ["components", "securitySchemes", name, key],
      head: ["components", "securitySchemes", name, key],
    };
    c.add(
      "security-scheme-changed",
      where,
      `${at.operation}: scheme ${name} ${key} ${show(sb[key])} → ${show(sh[key])}`,
    );
  }
}
