/**
 * The spec as a client developer reads it on the reference page: each operation with a curl line
 * and a typed-client call that work against the reference server (Redoc's `x-codeSamples`), and
 * its rules in plain words with the answers that keep and break them; the server as a usable URL.
 * Derived from the spec when the page is built, so nothing here can drift from it; the spec file
 * itself is unchanged.
 */

import { refusingRules } from "../rules/evaluate.ts";
import type { Relation, Rule } from "../rules/types.ts";
import type { RawDocument } from "../spec/load.ts";
import { parseRequest } from "../spec/request.ts";
import type { Spec } from "../spec/spec.ts";
import type { Operation, Parameter } from "../spec/types.ts";
import { examplesText } from "./examples-text.ts";

/** The reference server's address: what `npx dealkit serve` listens on. */
export const READER_BASE_URL = "http://127.0.0.1:8080";
const DEMO_UID = "10001";

/** The typed client's method for each operation (src/client/client.ts). */
export const CLIENT_METHODS: Record<string, string> = {
  getMeta: "meta",
  getRank: "rank",
  getFeed: "feed",
  searchAlerts: "search",
  listActivities: "shenghuo",
  getRss: "rss",
  getMyFollowHits: "myFollow",
  getMyPushHits: "myPush",
  getLegacyRankFile: "legacyRank",
};

/** A value the spec documents for a parameter: its example, first enum value, default or minimum. */
function sampleValue(p: Parameter): string | undefined {
  const s = p.schema;
  if (p.name === "uid") return DEMO_UID;
  const example = (p as Parameter & { example?: unknown }).example;
  if (example !== undefined) return String(example);
  if (s.enum) return String(s.enum[0]);
  if (s.default !== undefined) return String(s.default);
  if (s.minimum !== undefined) return String(s.minimum);
  return p.words ? "京东" : undefined;
}

/**
 * The smallest valid request of an operation: its required parameters, then, while a rule
 * refuses it (search needs a criterion), the first parameter that rule asks for.
 */
export function sampleQuery(spec: Spec, op: Operation): [string, string][] {
  const values = new Map<string, string>();
  for (const p of op.parameters) {
    const v = p.required ? sampleValue(p) : undefined;
    if (v !== undefined) values.set(p.name, v);
  }
  for (let i = 0; i < op.parameters.length; i++) {
    const query = new URLSearchParams(
      [...values].filter(([k]) => op.parameters.some((p) => p.name === k && p.in === "query")),
    );
    const rule = refusingRules(spec, op, parseRequest(spec, op, query, Object.fromEntries(values)))[0];
    const wanted = rule?.then.problem?.params?.[0];
    const param = wanted && op.parameters.find((p) => p.name === wanted);
    const v = param && sampleValue(param);
    if (!param || v === undefined) break;
    values.set(param.name, v);
  }
  return [...values];
}

function urlOf(op: Operation, values: [string, string][]): string {
  let path = op.path;
  const query: [string, string][] = [];
  for (const [name, value] of values) {
    const p = op.parameters.find((x) => x.name === name);
    if (p?.in === "path") path = path.replace(`{${name}}`, encodeURIComponent(value));
    else query.push([name, value]);
  }
  const qs = new URLSearchParams(query).toString();
  return `${READER_BASE_URL}${path}${qs ? `?${qs}` : ""}`;
}

/** What the client's method returns, named for the sample: the envelope's data, a bare array, or the XML. */
function answerName(op: Operation): string {
  const json = op.responses["200"]?.content["application/json"];
  if (!json) return "xml";
  return json.schema.type === "array" ? "entries" : "{ data }";
}

function samples(spec: Spec, op: Operation): { lang: string; label: string; source: string }[] {
  const values = sampleQuery(spec, op);
  const key = op.secured ? ` -H "X-API-Key: $DEALKIT_API_KEY"` : "";
  const method = CLIENT_METHODS[op.operationId];
  const query = values.filter(([name]) => op.parameters.find((p) => p.name === name)?.in === "query");
  const args = Object.fromEntries(query.map(([k, v]) => [k, /^-?[0-9]+$/.test(v) ? Number(v) : v]));
  const pathArg = values.find(([name]) => op.parameters.find((p) => p.name === name)?.in === "path")?.[1];
  const fields = Object.entries(args).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  const call =
    pathArg !== undefined ? JSON.stringify(pathArg) : fields.length ? `{ ${fields.join(", ")} }` : "";
  const client = [
    `import { createDealClient } from "dealkit/client";`,
    "",
    `const api = createDealClient({ baseUrl: "${READER_BASE_URL}"${op.secured ? ", apiKey: process.env.DEALKIT_API_KEY" : ""} });`,
    `const ${answerName(op)} = await api.${method}(${call});`,
  ].join("\n");
  return [
    { lang: "Shell", label: "curl", source: `curl -i${key} '${urlOf(op, values)}'` },
    { lang: "TypeScript", label: "typed client", source: client },
  ];
}

/**
 * The operation's rules, as a list a client developer reads (x-conformance, x-relations), each
 * with its examples; a relation crossing to another operation shows its second answer there.
 */
function rulesText(spec: Spec, op: Operation, raw: Record<string, unknown>): string {
  const list = (key: "x-conformance" | "x-relations") =>
    ((raw[key] as (Rule | Relation)[] | undefined) ?? []).flatMap((r) => [
      `- ${r.summary}`,
      ...examplesText(op, r.examples, "to" in r && r.to ? spec.operation(r.to.operation) : op),
    ]);
  const lines = [...list("x-conformance"), ...list("x-relations")];
  return lines.length ? `\n\n**What this endpoint promises**\n\n${lines.join("\n")}\n` : "";
}

/** The document the reference page is built from. */
export function readerDocument(spec: Spec): RawDocument {
  const doc = structuredClone(spec.raw) as RawDocument & {
    servers?: unknown[];
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
  doc.servers = [
    {
      url: READER_BASE_URL,
      description: "The reference server (`npx dealkit serve`); any other implementation: its own base URL.",
    },
  ];
  for (const op of spec.operations) {
    const raw = doc.paths[op.path]?.get;
    if (!raw) continue;
    raw["x-codeSamples"] = samples(spec, op);
    raw.description = `${String(raw.description ?? "").trimEnd()}${rulesText(spec, op, raw)}`;
  }
  return doc;
}
