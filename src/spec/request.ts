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

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });
const ESCAPES = /%(?![0-9A-Fa-f]{2})/;

/** Nothing above U+007F (a request line as Node reads it, percent-escapes included). */
const NON_ASCII = /[\u0080-\uffff]/;

/** One name or value of a query string decoded as x-query-string.decoding says, or undefined when it does not decode. */
export function decodeQueryPart(part: string): string | undefined {
  const spaced = part.replaceAll("+", " ");
  if (ESCAPES.test(spaced)) return undefined;
  // What a socket's request line holds: decodeURIComponent reads the same bytes as the same
  // UTF-8 (it refuses what a strict decoder refuses), but keeps a leading BOM, which the decoder
  // drops. A Buffer per escape and a decoder call cost ~20 µs of an OR search's parameters.
  if (!NON_ASCII.test(spaced)) {
    try {
      const text = decodeURIComponent(spaced);
      return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    } catch {
      return undefined;
    }
  }
  return decodeQueryBytes(spaced);
}

/** decodeQueryPart for any text (raw non-ASCII is read as its UTF-8 bytes): byte by byte. Exported as the reference its tests compare with. */
export function decodeQueryBytes(spaced: string): string | undefined {
  const bytes = (spaced.match(/%[0-9A-Fa-f]{2}|[^%]+/g) ?? []).map((token) =>
    token.startsWith("%") ? Buffer.from([Number.parseInt(token.slice(1), 16)]) : Buffer.from(token, "utf8"),
  );
  try {
    return STRICT_UTF8.decode(Buffer.concat(bytes));
  } catch {
    return undefined;
  }
}

/**
 * The 400's errors for parts of a query string that do not decode (x-query-string.decoding): a `%`
 * without two hexadecimal digits after it, or bytes that are not UTF-8. Each names its parameter;
 * a name that does not decode itself is named `query`.
 */
export function queryDecodingErrors(queryString: string): ParamError[] {
  const errors = new Map<string, ParamError>();
  for (const pair of queryString.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const name = decodeQueryPart(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? "" : decodeQueryPart(pair.slice(eq + 1));
    if (name !== undefined && value !== undefined) continue;
    const named = name ?? "query";
    errors.set(named, {
      in: "query",
      name: named,
      reason: "must be percent-encoded UTF-8 (a % takes two hexadecimal digits; the bytes must be UTF-8)",
    });
  }
  return [...errors.values()];
}

/**
 * Reads a request from its raw query string: parseRequest over the decoded parameters, with the
 * decoding errors in place of whatever the undecodable values would have given.
 */
export function readRequest(
  spec: Spec,
  operation: Operation,
  queryString: string,
  pathParams: Record<string, string> = {},
): ParsedRequest {
  const parsed = parseRequest(spec, operation, new URLSearchParams(queryString), pathParams);
  const undecodable = queryDecodingErrors(queryString);
  if (undecodable.length === 0) return parsed;
  const names = new Set(undecodable.map((e) => e.name));
  parsed.errors = [...undecodable, ...parsed.errors.filter((e) => !names.has(e.name))];
  return parsed;
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

/**
 * Compiles every parameter's validator now (ajv keeps them per schema), so that no request pays
 * for it: compiled lazily, the first request naming a parameter took a few ms more (25
 * parameters: 56 ms at first, 0.02 ms after), which a server's first-seen p99 counts.
 */
export function compileParameterChecks(spec: Spec): void {
  for (const operation of spec.operations) {
    for (const param of operation.parameters) if (param.in !== "header") spec.schemaValidator(param.schema);
  }
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
