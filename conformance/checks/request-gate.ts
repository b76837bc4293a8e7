/**
 * request-gate: what a stack answers by itself, before any endpoint sees the request. Sent raw
 * (http/raw-request.ts), each case once, through the run's pacing: heads just under and over the
 * common 8 KB proxy default and just under the cap (served), just over the cap (431), a header
 * line that is no field, HTTP/1.1 without Host, a broken request line (400), and %2F inside a path
 * segment (the API's 404). Judged against x-request-gate; an answer something in front of the API
 * made (an HTML page, an empty body, another Server) says so, with the signs that show it.
 */

import type { Spec } from "../../src/spec/spec.ts";
import type { GateAnswer, GateRefusal } from "../../src/spec/types.ts";
import type { WireRequest } from "../http/raw-request.ts";
import type {
  Check,
  CheckContext,
  Exchange,
  Finding,
  PlanContext,
  PlannedGroup,
  RequestCase,
  Verdict,
} from "../types.ts";

const NAME = "request-gate";

/** What a case must get: served like any GET, one of x-request-gate's refusals, or the encoded slash's answer. */
type Expect = "served" | GateRefusal | "encoded-slash";

export interface GateCase {
  id: string;
  /** What it sends, in words (findings and the report). */
  sends: string;
  expect: Expect;
  wire: WireRequest;
  pathname: string;
}

/** The cases, sizes and answers read from x-request-gate. */
export function gateCases(spec: Spec): GateCase[] {
  const gate = spec.requestGate;
  const path = spec.operation("getMeta").path;
  const kb = (n: number) => `${(n / 1024).toFixed(2)} KB`;
  const sized = (id: string, bytes: number, expect: Expect): GateCase => ({
    id,
    sends: `a request head of ${bytes} bytes (${kb(bytes)}), one header line holding most of it`,
    expect,
    wire: { headBytes: bytes, ...(expect === "served" ? { close: true as const } : {}) },
    pathname: path,
  });
  const { head_max_bytes: cap, slack_bytes: slack, served_beyond_bytes: common } = gate;
  const cases: GateCase[] = [
    sized("head-under-common-limit", common - slack, "served"),
    sized("head-over-common-limit", common + slack, "served"),
    sized("head-under-cap", cap - slack, "served"),
    sized("head-over-cap", cap + slack, "head-too-large"),
    {
      id: "malformed-header",
      sends: "a header line without a colon",
      expect: "malformed-header",
      wire: { lines: ["X-Gate-Line without a colon"] },
      pathname: path,
    },
    {
      id: "missing-host",
      sends: "HTTP/1.1 without Host",
      expect: "missing-host",
      wire: { noHost: true },
      pathname: path,
    },
    {
      id: "malformed-request-line",
      sends: "a request line with a space inside its target",
      expect: "malformed-request-line",
      wire: { requestLine: `GET ${path.replace(/(.)$/, " $1")} HTTP/1.1` },
      pathname: path,
    },
    {
      id: "encoded-slash",
      sends: "%2F inside a path segment",
      expect: "encoded-slash",
      wire: { close: true },
      pathname: path.replace(/\/(?=[^/]*$)/, "%2F"),
    },
  ];
  // A refusal the spec does not list is not asked for.
  return cases.filter(
    (c) => c.expect === "served" || c.expect === "encoded-slash" || gate.refusals[c.expect],
  );
}

const caseOf = (spec: Spec, e: Exchange) =>
  gateCases(spec).find((c) => e.request.label === `${NAME} ${c.id}`);

function plan(ctx: PlanContext): PlannedGroup[] {
  const requests: RequestCase[] = gateCases(ctx.spec).map((c) => ({
    method: "GET",
    pathname: c.pathname,
    query: [],
    headers: {},
    label: `${NAME} ${c.id}`,
    wire: c.wire,
  }));
  return [{ check: NAME, kind: "set", requests, label: "requests refused before routing, sent raw" }];
}

/** The answer a refusal case must get, from x-request-gate. */
const documentedOf = (spec: Spec, expect: Exclude<Expect, "served">): GateAnswer | undefined =>
  expect === "encoded-slash" ? spec.requestGate.encoded_slash : spec.requestGate.refusals[expect];

const problemType = (e: Exchange) => {
  const type = (e.body as { type?: unknown } | null | undefined)?.type;
  return typeof type === "string" ? type : undefined;
};

/**
 * What shows an answer came from something in front of the API, compared with the API's own
 * answers of the same group (the served ones): never a guess from a missing header alone.
 */
export function foreignSigns(e: Exchange, own: Exchange[]): string[] {
  const signs: string[] = [];
  if (e.mediaType === "text/html") signs.push("an HTML page");
  else if (e.text.trim() === "") signs.push("an empty body");
  else if (e.mediaType && !/[/+]json$/.test(e.mediaType)) signs.push(`a ${e.mediaType} body`);
  const server = e.headers.server;
  const apiServers = new Set(own.map((o) => o.headers.server));
  if (server && own.length > 0 && !apiServers.has(server))
    signs.push(
      `Server: ${server} (the API's own answers: ${[...apiServers].map((s) => s ?? "none").join(", ")})`,
    );
  if (e.headers.via && !own.some((o) => o.headers.via === e.headers.via)) signs.push(`Via: ${e.headers.via}`);
  return signs;
}

/** What an answer was, for Received. */
function received(e: Exchange, foreign: string[]) {
  return {
    status: e.status,
    contentType: e.mediaType ?? null,
    type: problemType(e) ?? null,
    cors: e.headers["access-control-allow-origin"] ?? null,
    ...(e.closed !== undefined ? { connectionClosed: e.closed } : {}),
    ...(foreign.length ? { answeredInFront: foreign } : {}),
  };
}

/** What is wrong with a refusal's answer, in words; empty when it is the documented one. */
function refusalFaults(ctx: CheckContext, e: Exchange, doc: GateAnswer, refusal: boolean): string[] {
  const answered = ctx.spec.requestGate.answered;
  const faults: string[] = [];
  if (e.status !== doc.status) faults.push(`status ${e.status}`);
  if (e.mediaType !== answered.media_type) faults.push(`content type ${e.mediaType ?? "none"}`);
  if (!problemType(e)?.endsWith(`/${doc.problem}`)) faults.push(`problem type ${problemType(e) ?? "none"}`);
  const origin = e.headers["access-control-allow-origin"];
  if (answered.cors && origin !== ctx.spec.cors.allow_origin) faults.push("no CORS");
  // The encoded slash is routed like any request: only a refusal ends its connection.
  if (refusal && answered.connection === "close" && e.closed === false)
    faults.push("the connection kept open");
  return faults;
}

/** What is wrong with a served case's answer: it must be the operation's own 200. */
function servedFaults(e: Exchange): string[] {
  return e.status === 200 && e.mediaType === "application/json" ? [] : [`status ${e.status}`];
}

function judgeCase(ctx: CheckContext, c: GateCase, e: Exchange, own: Exchange[]): Finding | undefined {
  const doc = c.expect === "served" ? undefined : documentedOf(ctx.spec, c.expect);
  const faults = doc ? refusalFaults(ctx, e, doc, c.expect !== "encoded-slash") : servedFaults(e);
  if (faults.length === 0) return undefined;
  const foreign = foreignSigns(e, own);
  const by = foreign.length ? `, answered in front of the API (${foreign.join("; ")})` : "";
  const want = doc ? `${doc.status} ${doc.problem}` : "served like any GET";
  return {
    code: `${NAME}/${c.id}`,
    title: `${c.sends}: ${faults.join(", ")}${by}; documented: ${want}`,
    received: received(e, foreign),
    documented: doc
      ? {
          status: doc.status,
          contentType: ctx.spec.requestGate.answered.media_type,
          type: `/problems/${doc.problem}`,
          cors: ctx.spec.cors.allow_origin,
          ...(c.expect === "encoded-slash" ? {} : { connection: ctx.spec.requestGate.answered.connection }),
        }
      : { status: 200, contentType: "application/json", why: "under x-request-gate.head_max_bytes" },
  };
}

/**
 * Why a case's answer judges nothing, if so: no connection was made, no whole answer came (a reset, a
 * timeout: answers-complete's finding, one defect one check), or the limiter answered.
 */
function notJudged(ctx: CheckContext, e: Exchange): string | undefined {
  if (e.failure?.kind === "unreachable") return `not sent (${e.failure.message})`;
  if (e.failure) return `no whole answer, judged by answers-complete (${e.failure.message})`;
  if (e.status === ctx.spec.rateLimit.status) return "refused by the rate limit";
  return undefined;
}

function judgeGroup(ctx: CheckContext, group: { exchanges: Exchange[] }): Verdict {
  const cases = group.exchanges.flatMap((e) => {
    const c = caseOf(ctx.spec, e);
    return c ? [{ c, e }] : [];
  });
  const own = cases
    .filter(({ c, e }) => c.expect === "served" && servedFaults(e).length === 0)
    .map(({ e }) => e);
  const skipped = cases.flatMap(({ c, e }) => {
    const why = notJudged(ctx, e);
    return why ? [`${c.id}: ${why}`] : [];
  });
  const judged = cases.filter(({ e }) => notJudged(ctx, e) === undefined);
  const findings = judged.flatMap(({ c, e }) => {
    const finding = judgeCase(ctx, c, e, own);
    return finding ? [{ finding, exchange: e }] : [];
  });
  const missing = gateCases(ctx.spec).length - cases.length;
  const left = [...skipped, ...(missing > 0 ? [`${missing} cases not sent`] : [])];
  return {
    findings,
    informative: judged.length > 0,
    ...(judged.length === 0
      ? { inconclusive: `no case could be judged (${left.join("; ") || "none sent"})` }
      : {}),
    ...(judged.length > 0 && left.length > 0 ? { partial: `not judged: ${left.join("; ")}` } : {}),
  };
}

/** Requests refused before routing, and the heads under the cap, answered as x-request-gate says. */
export const requestGate: Check = {
  name: NAME,
  title: "A request refused before routing, or one under the head cap, not answered as the spec says",
  verifies:
    "Heads just under and over 8 KB and just under 16 KB are served; one over 16 KB gets 431 headers-too-large, a header line without a colon, HTTP/1.1 without Host and a broken request line 400 malformed-request (problem+json, CORS, connection closed); %2F in a path segment the API's 404 not-found.",
  source: 'x-request-gate; info.description "Requests HTTP cannot read"',
  severity: "high",
  plan,
  judgeGroup,
};
