import type { ErrorObject } from "ajv";
import { splitWords } from "../rules/words.ts";
import type { Spec } from "./spec.ts";
import type { Operation, Parameter } from "./types.ts";

/** One offending parameter, as it appears in a problem body's `errors`. */
export interface ParamError {
  in: "query" | "path" | "header";
  name: string;
  reason: string;
}

/** A request's parameters read against the spec. */
export interface ParsedRequest {
  /** Raw values as sent; an empty value counts as absent. */
  raw: Record<string, string | undefined>;
  /** Typed values with the spec's defaults applied; undefined when absent without default or invalid. */
  values: Record<string, unknown>;
  errors: ParamError[];
}

/**
 * The 400's error for a query string over x-query-string.max_length, checked before anything is
 * parsed. The string is measured as sent (percent-encoded, as it travels), never decoded.
 */
export function queryLengthError(spec: Spec, queryString: string): ParamError | undefined {
  const max = spec.queryString.max_length;
  if (queryString.length <= max) return undefined;
  return { in: "query", name: "query", reason: `the query string must be at most ${max} characters as sent` };
}

const INTEGER = /^-?[0-9]+$/;
const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;

/**
 * Reads the parameters of a request the way every implementation must (see the info
 * description): empty = absent, given twice = 400, integers are decimal digits, prices decimals,
 * then the parameter schema (bounds, enums, patterns) and the x-words limits.
 */
export function parseRequest(
  spec: Spec,
  operation: Operation,
  query: URLSearchParams,
  pathParams: Record<string, string> = {},
): ParsedRequest {
  const parsed: ParsedRequest = { raw: {}, values: {}, errors: [] };
  for (const param of operation.parameters) {
    if (param.in === "header") continue;
    const given = param.in === "path" ? [pathParams[param.name] ?? ""] : query.getAll(param.name);
    const raw = given[0] === "" ? undefined : given[0];
    // A duplicated parameter was still sent: rules must not read it as absent.
    parsed.raw[param.name] = raw;
    if (given.length > 1) {
      parsed.errors.push({ in: param.in, name: param.name, reason: "must be given at most once" });
      continue;
    }
    if (raw === undefined) {
      if (param.required) parsed.errors.push({ in: param.in, name: param.name, reason: "is required" });
      else parsed.values[param.name] = param.schema.default;
      continue;
    }
    const reason = checkValue(spec, param, raw);
    if (reason) parsed.errors.push({ in: param.in, name: param.name, reason });
    else parsed.values[param.name] = coerce(param, raw);
  }
  return parsed;
}

function coerce(param: Parameter, raw: string): unknown {
  const type = param.schema.type;
  return type === "integer" || type === "number" ? Number(raw) : raw;
}

function checkValue(spec: Spec, param: Parameter, raw: string): string | undefined {
  const type = param.schema.type;
  if (type === "integer" && !INTEGER.test(raw)) return `must be an integer, got ${JSON.stringify(raw)}`;
  if (type === "number" && !DECIMAL.test(raw)) return `must be a decimal number, got ${JSON.stringify(raw)}`;
  const validate = spec.schemaValidator(param.schema);
  if (!validate(coerce(param, raw))) return describe(validate.errors ?? [], raw);
  const syntax = param.words;
  if (syntax) {
    const words = splitWords(raw, syntax);
    if (words.length > syntax.max_words) return `must hold at most ${syntax.max_words} words`;
    if (words.some((w) => [...w].length > syntax.max_word_length)) {
      return `words must be at most ${syntax.max_word_length} characters long`;
    }
  }
  return undefined;
}

function describe(errors: ErrorObject[], raw: string): string {
  const e = errors[0];
  if (!e) return "is invalid";
  const got = `got ${JSON.stringify(raw)}`;
  if (e.keyword === "enum") {
    const allowed = (e.params as { allowedValues: unknown[] }).allowedValues;
    return `must be one of ${allowed.join(", ")}; ${got}`;
  }
  return `${e.message ?? "is invalid"}, ${got}`;
}
