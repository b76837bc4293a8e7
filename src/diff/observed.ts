/**
 * `dealkit diff BASE HEAD --observed LEDGER`: which of the change's removals the deployment still
 * sends. A field the ledger saw in answers of the same operation and status is received by
 * clients today, so removing it breaks them now; a field nobody has been sent since the ledger
 * began is a removal on paper. Read against the ledger the conformance commands keep
 * (conformance/ledger/), by its field paths (src/spec/field-paths.ts); this file reads only the
 * few members it needs, so the library stays free of the suite.
 */
import { parentPath, ROOT, schemaPaths } from "../spec/field-paths.ts";
import type { JsonSchema } from "../spec/types.ts";
import type { Json } from "./context.ts";
import { dereference } from "./dereference.ts";

/** The parts of a ledger the diff reads. */
export interface ObservedLedger {
  runs: number;
  last?: { at: string };
  kinds: Record<
    string,
    {
      answers: number;
      first: { at: string };
      last: { at: string };
      fields: Record<
        string,
        { n: number; last: { at: string }; absent?: { answers: number; from: { at: string } } }
      >;
    }
  >;
}

export type Observation = "still-sent" | "no-longer-sent" | "never-sent" | "not-observed";

export interface ObservedRemoval {
  operationId: string;
  /** `GET /api/v1/feed`. */
  operation: string;
  status: string;
  /** The field path removed (`$`: the whole answer, for a status or an operation removed). */
  path: string;
  seen: Observation;
  detail: string;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

interface Responses {
  operation: string;
  byStatus: Map<string, JsonSchema | undefined>;
}

/** Per operationId, the JSON schema of each numeric response status. */
function responsesOf(doc: Json): Map<string, Responses> {
  const out = new Map<string, Responses>();
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item?.[method] as Json | undefined;
      if (!op || typeof op.operationId !== "string") continue;
      const byStatus = new Map<string, JsonSchema | undefined>();
      for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
        if (!/^[1-5][0-9][0-9]$/.test(status)) continue;
        const content = (response?.content ?? {}) as Record<string, { schema?: JsonSchema }>;
        const json = Object.entries(content).find(([type]) => /[/+]json\b/.test(type));
        byStatus.set(status, json?.[1].schema);
      }
      out.set(op.operationId, { operation: `${method.toUpperCase()} ${path}`, byStatus });
    }
  }
  return out;
}

const day = (at: string) => at.slice(0, 10);

function observe(ledger: ObservedLedger, kind: string, path: string): { seen: Observation; detail: string } {
  const record = ledger.kinds[kind];
  if (!record) return { seen: "not-observed", detail: `no ${kind} answer in the ledger` };
  const field = record.fields[path];
  if (!field || field.n === 0)
    return {
      seen: "never-sent",
      detail: `in none of ${record.answers} ${kind} answers (${day(record.first.at)} to ${day(record.last.at)})`,
    };
  if (field.absent && field.absent.answers >= 2)
    return {
      seen: "no-longer-sent",
      detail: `last sent ${day(field.last.at)}; lacking in the ${field.absent.answers} answers since ${day(field.absent.from.at)}`,
    };
  return {
    seen: "still-sent",
    detail: `sent ${field.n} times, last ${day(field.last.at)}: clients receive it today`,
  };
}

/** The removals of a change (top-most paths only), each with what the ledger saw of it. */
export async function observedRemovals(
  baseRaw: Json,
  headRaw: Json,
  ledger: ObservedLedger,
): Promise<ObservedRemoval[]> {
  const [base, head] = await Promise.all([dereference(baseRaw), dereference(headRaw)]);
  const before = responsesOf(base);
  const after = responsesOf(head);
  const out: ObservedRemoval[] = [];
  for (const [operationId, { operation, byStatus }] of before) {
    for (const [status, schema] of byStatus) {
      const headSchema = after.get(operationId)?.byStatus;
      const gone = !headSchema?.has(status);
      const removed = gone
        ? new Set([ROOT])
        : difference(schemaPaths(schema), schemaPaths(headSchema?.get(status)));
      for (const path of removed) {
        const parent = parentPath(path);
        if (parent !== undefined && removed.has(parent)) continue;
        out.push({
          operationId,
          operation,
          status,
          path,
          ...observe(ledger, `${operationId} ${status}`, path),
        });
      }
    }
  }
  return out;
}

function difference(a: Set<string>, b: Set<string>): Set<string> {
  return new Set([...a].filter((x) => !b.has(x)));
}

const ORDER: Observation[] = ["still-sent", "no-longer-sent", "never-sent", "not-observed"];
const WORDS: Record<Observation, string> = {
  "still-sent": "still sent",
  "no-longer-sent": "no longer sent",
  "never-sent": "never sent",
  "not-observed": "not observed",
};

const sorted = (list: ObservedRemoval[]) =>
  [...list].sort((a, b) => ORDER.indexOf(a.seen) - ORDER.indexOf(b.seen));
const what = (r: ObservedRemoval) =>
  `${r.operation} ${r.status} ${r.path === ROOT ? "(the whole answer)" : r.path}`;

/** The observations, in the diff's output format: text and markdown sections, JSON, GitHub annotations. */
export function formatObserved(
  list: ObservedRemoval[],
  as: "text" | "markdown" | "json" | "github",
  label: string,
  ledger: ObservedLedger,
): string {
  const still = list.filter((r) => r.seen === "still-sent").length;
  const head = `Removals against the ledger ${label} (${ledger.runs} runs, last ${ledger.last ? day(ledger.last.at) : "never"}): ${still} of ${list.length} still sent`;
  switch (as) {
    case "json":
      return JSON.stringify({ ledger: label, runs: ledger.runs, removals: sorted(list) }, null, 2);
    case "markdown":
      return [
        `### ${head}`,
        "",
        ...(list.length ? ["| removal | deployment | evidence |", "|---|---|---|"] : []),
        ...sorted(list).map(
          (r) =>
            `| \`${what(r)}\` | ${r.seen === "still-sent" ? "**still sent**" : WORDS[r.seen]} | ${r.detail} |`,
        ),
      ].join("\n");
    case "github":
      return [
        ...sorted(list)
          .filter((r) => r.seen === "still-sent")
          .map((r) => `::error title=removal still sent::${what(r)}: ${r.detail}`),
        head,
      ].join("\n");
    default:
      return [head, ...sorted(list).map((r) => `  ${WORDS[r.seen].padEnd(14)} ${what(r)}: ${r.detail}`)].join(
        "\n",
      );
  }
}
