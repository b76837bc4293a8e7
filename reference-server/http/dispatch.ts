import type { IncomingHttpHeaders } from "node:http";
import { credentialUid } from "../../src/http/credentials.ts";
import { invalidParameters, PROBLEM_JSON, problem, refusedByRule } from "../../src/http/problems.ts";
import { refusingRules } from "../../src/rules/evaluate.ts";
import { queryLengthError, readRequest } from "../../src/spec/request.ts";
import type { Account } from "../auth.ts";
import type { Answer, RouteContext } from "../routes/context.ts";
import { handlers } from "../routes/index.ts";

/** The account of a uid (as credentialUid reads it) and key, if they match one. */
export type Verifier = (uid: number | undefined, key: string | undefined) => Account | undefined;

const refuse = (status: number, body: unknown): Answer => ({ status, body, type: PROBLEM_JSON });

/**
 * Answers one GET from the spec: route by path, read the parameters as the spec says
 * (parseRequest), check credentials on secured operations, refuse what an x-conformance rule
 * refuses or what breaks a parameter's schema, and only then call the operation's handler.
 */
export function dispatch(
  ctx: RouteContext,
  verify: Verifier,
  rawUrl: string,
  headers: IncomingHttpHeaders,
  baseUrl: string,
): Answer {
  const { spec } = ctx;
  const q = rawUrl.indexOf("?");
  const pathname = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const queryString = q === -1 ? "" : rawUrl.slice(q + 1);
  let match: ReturnType<typeof spec.match>;
  try {
    match = spec.match(pathname);
  } catch {
    match = undefined; // a malformed percent-escape in a path parameter: no such resource
  }
  // The operation goes with its answers: how caches may keep one depends on it (x-caching).
  const routed = (answer: Answer): Answer => {
    if (match) answer.operation = match.operation;
    return answer;
  };
  // Refused before the path is read at all, but still the answer of the operation it names.
  const tooLong = queryLengthError(spec, queryString);
  if (tooLong) return routed(refuse(400, invalidParameters(spec, [tooLong])));
  if (!match) return refuse(404, problem(spec, "not-found"));
  const { operation } = match;
  const handler = handlers[operation.operationId];
  if (!handler) throw new Error(`no handler for ${operation.operationId}`);
  const parsed = readRequest(spec, operation, queryString, match.pathParams);

  let account: Account | undefined;
  if (operation.secured) {
    const key = headers["x-api-key"];
    // Parsed here only: most operations (search among them) carry no credentials.
    const query = new URLSearchParams(queryString);
    account = verify(credentialUid(query), typeof key === "string" ? key : undefined);
    // One body for a missing key, a wrong key and an unknown uid: nothing tells them apart.
    if (!account) return routed(refuse(401, problem(spec, "unauthorized")));
  }
  // A refusing rule names the problem type (e.g. missing-search-criterion); parameter errors
  // found on the way are listed with it, so nothing the client got wrong goes unmentioned.
  const rule = refusingRules(spec, operation, parsed)[0];
  if (rule) return routed(refuse(rule.then.status ?? 400, refusedByRule(spec, rule, parsed.errors)));
  if (parsed.errors.length > 0) return routed(refuse(400, invalidParameters(spec, parsed.errors)));
  return routed(handler(ctx, { operation, parsed, headers, baseUrl, account }));
}
