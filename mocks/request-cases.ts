import { refusingRules } from "../src/rules/evaluate.ts";
import { type ParsedRequest, parseRequest } from "../src/spec/request.ts";
import type { Spec } from "../src/spec/spec.ts";
import type { Operation, Parameter } from "../src/spec/types.ts";

/** One accepted request of an operation, as the mock tests send it. */
export interface RequestCase {
  operation: Operation;
  path: string;
  query: URLSearchParams;
  parsed: ParsedRequest;
}

/**
 * Boundary values of one parameter, read from its schema: every enum value, integer bounds
 * with the rank content edge (50/51) inside them, and, for word lists, a word of the examples
 * and a separator-only value.
 */
function valuesOf(param: Parameter): string[] {
  const s = param.schema;
  if (Array.isArray(s.enum)) return s.enum.map(String);
  if (s.type === "integer" || s.type === "number") {
    const min = s.minimum ?? 0;
    const max = s.maximum ?? 1000;
    return [min, 2, 50, 51, max].filter((n) => n >= min && n <= max).map(String);
  }
  if (param.words) return ["立减金", "红包|京东", "iphone", "立减金#", "京东"];
  if (s.pattern) return ["waimai", "nosuchcate"];
  return ["京东"];
}

/** A valid value for a required parameter (the first enum value, else the minimum). */
function requiredValue(param: Parameter): string {
  return valuesOf(param)[0] ?? "1";
}

/**
 * Requests built from the spec: for each operation, each parameter varied over its boundary
 * values with the others absent (required ones filled), plus a few combinations the rules
 * single out. Only requests the API accepts are kept; refusals are tested on their own.
 */
export function acceptedRequests(
  spec: Spec,
  base: Record<string, Record<string, string>> = {},
): RequestCase[] {
  const out: RequestCase[] = [];
  for (const operation of spec.operations) {
    const pathParam = operation.parameters.find((p) => p.in === "path");
    const queryParams = operation.parameters.filter((p) => p.in === "query");
    const required = Object.fromEntries(
      queryParams.filter((p) => p.required).map((p) => [p.name, requiredValue(p)]),
    );
    const variants: Record<string, string>[] = [{}];
    for (const p of queryParams) for (const v of valuesOf(p)) variants.push({ [p.name]: v });
    for (const variant of variants) {
      for (const pathValue of pathParam ? valuesOf(pathParam).slice(0, 3) : [undefined]) {
        const query = new URLSearchParams({ ...required, ...base[operation.operationId], ...variant });
        const pathParams: Record<string, string> =
          pathParam && pathValue ? { [pathParam.name]: pathValue } : {};
        const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => pathParams[name] ?? "");
        const parsed = parseRequest(spec, operation, query, pathParams);
        if (parsed.errors.length > 0 || refusingRules(spec, operation, parsed).length > 0) continue;
        out.push({ operation, path, query, parsed });
      }
    }
  }
  return out;
}

/** A criterion added to every search case, so the cases exercise the other parameters. */
export const SEARCH_BASE = { searchAlerts: { q: "立减金" } };

/** Price filters on unpriced and priced categories, by alias and by ID (the price-scope rules). */
export const PRICE_CASES: Record<string, string>[] = [
  { mip: "10", cate: "douban" },
  { mxp: "100", cate: "shangjin" },
  { mip: "0", mxp: "2000", cate: "weibo" },
  { mip: "0.01", cate: "10" },
];

/**
 * Every boundary request the mock tests answer: each operation's accepted boundaries (searches
 * with SEARCH_BASE's word, and without one), plus the price cases.
 */
export function everyAcceptedRequest(spec: Spec): RequestCase[] {
  const cases = [
    ...acceptedRequests(spec, SEARCH_BASE),
    ...acceptedRequests(spec, { searchAlerts: {} }).filter((c) => c.operation.operationId === "searchAlerts"),
  ];
  for (const extra of PRICE_CASES) {
    const operation = spec.operation("searchAlerts");
    const query = new URLSearchParams(extra);
    cases.push({ operation, path: operation.path, query, parsed: parseRequest(spec, operation, query) });
  }
  return cases;
}
