import type { ValidateFunction } from "ajv";
import type { Relation, Rule } from "../rules/types.ts";
import { createAjv } from "./ajv.ts";
import type { RawDocument } from "./load.ts";
import type {
  CachingKind,
  CachingPolicy,
  Categories,
  Category,
  CompressionPolicy,
  CorsPolicy,
  JsonSchema,
  MethodsPolicy,
  NotProvided,
  Operation,
  Parameter,
  ProblemType,
  QueryStringPolicy,
  RankWindows,
  RateLimitPolicy,
  RequestGatePolicy,
  ResponseSpec,
  VersioningPolicy,
  WordsSyntax,
} from "./types.ts";

export interface RouteMatch {
  operation: Operation;
  pathParams: Record<string, string>;
}

interface CompiledRoute {
  operation: Operation;
  pattern: RegExp;
  names: string[];
}

/** A loaded, dereferenced spec with typed access to operations, validators and x- extensions. */
export class Spec {
  readonly version: string;
  readonly operations: Operation[];
  readonly rateLimit: RateLimitPolicy;
  readonly cors: CorsPolicy;
  readonly versioning: VersioningPolicy;
  readonly categories: Categories;
  readonly rankWindows: RankWindows;
  readonly problemTypes: Record<string, ProblemType>;
  readonly notProvided: NotProvided[];
  private readonly byId = new Map<string, Operation>();
  private readonly routes: CompiledRoute[];
  private readonly ajv = createAjv();
  private readonly validators = new Map<string, ValidateFunction>();
  /** Named sets, built once: a rule asks for one per item judged (it was a tenth of passive judging). */
  private readonly sets = new Map<string, ReadonlySet<string>>();

  constructor(
    readonly source: string,
    /** The document as written, $refs unresolved. */
    readonly raw: RawDocument,
    /** The same document with every $ref resolved. */
    readonly doc: RawDocument,
  ) {
    this.version = String((doc.info as { version: string }).version);
    this.rateLimit = required(doc, "x-rate-limit");
    this.cors = required(doc, "x-cors");
    this.versioning = required(doc, "x-versioning");
    this.categories = required(doc, "x-categories");
    this.rankWindows = required(doc, "x-rank-windows");
    this.problemTypes = required(doc, "x-problem-types");
    this.notProvided = required(doc, "x-not-provided");
    this.operations = readOperations(doc);
    for (const op of this.operations) this.byId.set(op.operationId, op);
    this.routes = this.operations.map(compileRoute);
  }

  // Read when first asked: the frozen releases older than these extensions load as specs too
  // (only their schemas are used) and must not fail for lacking them.
  get methods(): MethodsPolicy {
    return required(this.doc, "x-methods");
  }

  get queryString(): QueryStringPolicy {
    return required(this.doc, "x-query-string");
  }

  get requestGate(): RequestGatePolicy {
    return required(this.doc, "x-request-gate");
  }

  get caching(): CachingPolicy {
    return required(this.doc, "x-caching");
  }

  get compression(): CompressionPolicy {
    return required(this.doc, "x-compression");
  }

  operation(operationId: string): Operation {
    const op = this.byId.get(operationId);
    if (!op) throw new Error(`no operation ${operationId} in the spec`);
    return op;
  }

  /** The operation serving a GET of this pathname, with its path parameters. */
  match(pathname: string): RouteMatch | undefined {
    for (const route of this.routes) {
      const m = route.pattern.exec(pathname);
      if (!m) continue;
      const pathParams: Record<string, string> = {};
      route.names.forEach((name, i) => {
        pathParams[name] = decodeURIComponent(m[i + 1] ?? "");
      });
      return { operation: route.operation, pathParams };
    }
    return undefined;
  }

  /** The kind of answer x-caching sorts an answer into: a personal stream's, a 429, or any other. */
  cachingKind(operation: Operation | undefined, status: number): CachingKind {
    if (operation?.secured) return "personal";
    return status === this.rateLimit.status ? "rate-limited" : "public";
  }

  /** The Cache-Control directive sets an answer may carry (one of them, every directive of it). */
  cacheControl(kind: CachingKind): string[][] {
    const entry = this.caching.answers.find((a) => a.kind === kind);
    if (!entry) throw new Error(`x-caching has no entry for ${kind} answers`);
    return entry.cache_control;
  }

  /** Finds a category by alias or ID. */
  category(ref: string): Category | undefined {
    return this.categories.items.find((c) => c.alias === ref || c.id === ref);
  }

  /** Named sets the rules refer to (`inSet`, `mirrors.set`), derived from x-categories. */
  set(name: string): ReadonlySet<string> {
    let set = this.sets.get(name);
    if (!set) {
      set = this.namedSet(name);
      this.sets.set(name, set);
    }
    return set;
  }

  private namedSet(name: string): Set<string> {
    const items = this.categories.items;
    switch (name) {
      case "priced-categories":
        return new Set(items.filter((c) => c.priced).flatMap((c) => [c.id, c.alias]));
      case "unpriced-categories":
        return new Set(items.filter((c) => !c.priced).flatMap((c) => [c.id, c.alias]));
      case "priced-category-ids":
        return new Set(items.filter((c) => c.priced).map((c) => c.id));
      default:
        throw new Error(`unknown set ${name}`);
    }
  }

  /** Every x-relations relation with the operation it belongs to. */
  relations(): { operation: Operation; relation: Relation }[] {
    return this.operations.flatMap((operation) =>
      operation.relations.map((relation) => ({ operation, relation })),
    );
  }

  /** Every x-conformance rule with the operation it belongs to. */
  rules(): { operation: Operation; rule: Rule }[] {
    return this.operations.flatMap((operation) => operation.rules.map((rule) => ({ operation, rule })));
  }

  /** The schema of a documented response body, or undefined when the status or media type is undocumented. */
  responseSchema(operationId: string, status: number, mediaType: string): JsonSchema | undefined {
    const response = this.response(operationId, status);
    return response?.content[mediaType]?.schema;
  }

  /** The documented response for a status (exact code, then `4XX`-style range, then `default`). */
  response(operationId: string, status: number): ResponseSpec | undefined {
    const responses = this.operation(operationId).responses;
    return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
  }

  /** A compiled ajv validator for a response body; cached per operation, status and media type. */
  responseValidator(operationId: string, status: number, mediaType: string): ValidateFunction | undefined {
    const key = `${operationId} ${status} ${mediaType}`;
    const cached = this.validators.get(key);
    if (cached) return cached;
    const schema = this.responseSchema(operationId, status, mediaType);
    if (!schema) return undefined;
    const validate = this.ajv.compile(schema);
    this.validators.set(key, validate);
    return validate;
  }

  /** A compiled ajv validator for any schema of this document (parameters, headers). */
  schemaValidator(schema: JsonSchema): ValidateFunction {
    return this.ajv.compile(schema);
  }
}

function required<T>(doc: RawDocument, key: string): T {
  const value = doc[key];
  if (value === undefined) throw new Error(`the spec has no ${key}`);
  return value as T;
}

function readOperations(doc: RawDocument): Operation[] {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    const get = item.get;
    if (!get) continue;
    const security = get.security as unknown[] | undefined;
    operations.push({
      operationId: String(get.operationId),
      method: "get",
      path,
      summary: String(get.summary ?? ""),
      tags: (get.tags as string[]) ?? [],
      secured: Array.isArray(security) && security.some((req) => Object.keys(req as object).length > 0),
      parameters: ((get.parameters ?? []) as Record<string, unknown>[]).map(readParameter),
      responses: readResponses(get.responses as Record<string, Record<string, unknown>>),
      rules: (get["x-conformance"] as Rule[]) ?? [],
      relations: (get["x-relations"] as Relation[]) ?? [],
    });
  }
  return operations;
}

function readParameter(p: Record<string, unknown>): Parameter {
  return {
    name: String(p.name),
    in: p.in as Parameter["in"],
    required: p.required === true,
    description: String(p.description ?? ""),
    schema: (p.schema ?? {}) as JsonSchema,
    words: p["x-words"] as WordsSyntax | undefined,
  };
}

function readResponses(responses: Record<string, Record<string, unknown>>): Record<string, ResponseSpec> {
  const out: Record<string, ResponseSpec> = {};
  for (const [status, r] of Object.entries(responses)) {
    out[status] = {
      status,
      description: String(r.description ?? ""),
      headers: (r.headers ?? {}) as ResponseSpec["headers"],
      content: (r.content ?? {}) as ResponseSpec["content"],
    };
  }
  return out;
}

function compileRoute(operation: Operation): CompiledRoute {
  const names: string[] = [];
  const source = operation.path
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const m = /^\{(.+)\}$/.exec(part);
      if (m?.[1]) {
        names.push(m[1]);
        return "([^/]+)";
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  return { operation, pattern: new RegExp(`^${source}$`), names };
}

/**
 * The same spec with another rate limit in x-rate-limit: what a target configured with another
 * limit than the contract's (a test server, a staging deployment) is judged against, so its
 * manifest, headers and 429s are checked for agreeing with the limit it really enforces.
 */
export function withRateLimit(spec: Spec, rate: { limit: number; windowSeconds: number }): Spec {
  const patch = (doc: RawDocument): RawDocument => ({
    ...doc,
    "x-rate-limit": {
      ...(doc["x-rate-limit"] as object),
      limit: rate.limit,
      window_seconds: rate.windowSeconds,
    },
  });
  return new Spec(spec.source, patch(spec.raw), patch(spec.doc));
}
