import { compareExtensions, EXTENSION_KEYS } from "./compare-extensions.ts";
import { comparePaths } from "./compare-operations.ts";
import { compareServers } from "./compare-servers.ts";
import { Collector, compareRest, type Json, obj, show } from "./context.ts";
import { dereference } from "./dereference.ts";
import { type RuleId, ruleInfo } from "./rules.ts";
import { type DiffOptions, type DiffResult, type Finding, LEVELS, type Summary } from "./types.ts";
import {
  checkAnnouncements,
  checkSuccessorPrefix,
  crossMajorPaths,
  detectMode,
  sameMajorPaths,
  successorPublished,
} from "./versioning.ts";

export interface DiffInput {
  /** How the input is named in reports: a file path or `git:REV:path`. */
  label: string;
  /** The document as written. */
  raw: Json;
}

/** Rules that judge the new major itself; across majors they keep their level, everything else becomes a note. */
const POLICY_RULES = new Set([
  "v2-path-outside-prefix",
  "deprecation-announced-too-early",
  "sunset-too-early",
  "successor-date-unknown",
]);

/**
 * Compares two OpenAPI documents and returns findings as data. The walk runs over the
 * dereferenced documents, so moving a schema behind a $ref is no change, and reports pointers
 * into the documents as written.
 */
export async function diffDocuments(
  base: DiffInput,
  head: DiffInput,
  options: DiffOptions = {},
): Promise<DiffResult> {
  const [b, h] = await Promise.all([dereference(base.raw), dereference(head.raw)]);
  const c = new Collector(base.raw, head.raw);
  const mode = detectMode(b, h);
  const published = successorPublished(b, h, mode, options);
  if (mode === "same-major") {
    comparePaths(c, b, h, sameMajorPaths(b, published, options));
    checkAnnouncements(c, h, "head", published, options);
  } else {
    comparePaths(c, b, h, crossMajorPaths(b));
    checkSuccessorPrefix(c, b, h);
    if (!published)
      c.add(
        "successor-date-unknown",
        { base: [], head: ["info"] },
        "state the v2 publication date (x-versioning.published)",
      );
    checkAnnouncements(c, b, "base", published, options);
  }
  compareExtensions(c, b, h, mode);
  compareRoot(c, b, h);
  const findings = order(dedupe(mode === "cross-major" ? c.findings.map(asMigrationNote) : c.findings));
  return {
    mode,
    base: { label: base.label, version: String(obj(b.info).version ?? "") },
    head: { label: head.label, version: String(obj(h.info).version ?? "") },
    findings,
    summary: summarize(findings),
  };
}

/** Root keys other than paths and the x-rules. Components are compared where they are used. */
function compareRoot(c: Collector, b: Json, h: Json): void {
  compareServers(c, b.servers, h.servers, { base: ["servers"], head: ["servers"] }, "servers");
  const ib = obj(b.info);
  const ih = obj(h.info);
  if (ib.version !== ih.version)
    c.add(
      "documentation-changed",
      { base: ["info", "version"], head: ["info", "version"] },
      `info.version ${show(ib.version)} → ${show(ih.version)}`,
    );
  compareRest(
    c,
    ib,
    ih,
    { base: ["info"], head: ["info"], field: "info" },
    new Set(["version", "x-published"]),
  );
  compareRest(
    c,
    b,
    h,
    { base: [], head: [] },
    new Set(["paths", "components", "servers", "info", "security", ...EXTENSION_KEYS]),
  );
}

function asMigrationNote(f: Finding): Finding {
  if (POLICY_RULES.has(f.rule)) return f;
  return { ...f, level: "info", migration: { impact: f.level, advice: ruleInfo(f.rule as RuleId).advice } };
}

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = JSON.stringify([f.rule, f.location, f.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Most severe first; within a level, the walk's (document) order. */
function order(findings: Finding[]): Finding[] {
  return [...findings].sort((x, y) => LEVELS.indexOf(x.level) - LEVELS.indexOf(y.level));
}

function summarize(findings: Finding[]): Summary {
  const s: Summary = { breaking: 0, warning: 0, info: 0 };
  for (const f of findings) s[f.level]++;
  return s;
}
