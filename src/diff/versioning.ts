import type { PathPolicy } from "./compare-operations.ts";
import { type At, type Collector, isObject, type Json, obj } from "./context.ts";
import type { DiffOptions, Mode } from "./types.ts";

/**
 * The versioning policy (x-versioning): within a major nothing breaks; a successor major lives
 * under its own prefix; v1 stays served and may announce its end (Deprecation/Sunset) no sooner
 * than `min_support_months_after_successor` (6) months after the successor's publication.
 *
 * The successor's publication date, first found wins:
 *   1. `--successor-published YYYY-MM-DD` (DiffOptions.successorPublished);
 *   2. `x-versioning.successor_published` of the head, then of the base document (the v1
 *      document records it when v2 ships);
 *   3. across majors, the v2 document's own `x-versioning.published` or `info.x-published`.
 * Unknown means "not published yet": removing a v1 path or announcing v1's end is then breaking.
 */

export function majorOf(doc: Json): number | undefined {
  const m = /^(\d+)\./.exec(String(obj(doc.info).version ?? ""));
  return m ? Number(m[1]) : undefined;
}

function apiPaths(doc: Json): string[] {
  return Object.keys(obj(doc.paths)).filter((p) => p.startsWith("/api/"));
}

function under(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

export function detectMode(b: Json, h: Json): Mode {
  const bothV1 = [b, h].every((d) => apiPaths(d).length > 0 && apiPaths(d).every((p) => under(p, "/api/v1")));
  return majorOf(b) === majorOf(h) || bothV1 ? "same-major" : "cross-major";
}

function versioning(doc: Json): Json {
  return obj(doc["x-versioning"]);
}

function isoDate(v: unknown): string | undefined {
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v))
    ? v
    : undefined;
}

export function successorPublished(b: Json, h: Json, mode: Mode, options: DiffOptions): string | undefined {
  const candidates = [
    options.successorPublished,
    versioning(h).successor_published,
    versioning(b).successor_published,
  ];
  if (mode === "cross-major") candidates.push(versioning(h).published, obj(h.info)["x-published"]);
  return candidates.map(isoDate).find((d) => d !== undefined);
}

export function supportMonths(doc: Json): number {
  const m = versioning(doc).min_support_months_after_successor;
  return typeof m === "number" ? m : 6;
}

export function addMonths(date: string, months: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
}

export function today(options: DiffOptions): string {
  return options.today ?? new Date().toISOString().slice(0, 10);
}

/** Within a major: a removed v1 path is judged by the successor's age. */
export function sameMajorPaths(b: Json, published: string | undefined, options: DiffOptions): PathPolicy {
  const prefix = String(versioning(b).path_prefix ?? "/api/v1");
  return {
    counterpart: (p) => p,
    removed(c, path, at) {
      const where = { ...at, operation: path };
      if (!under(path, prefix)) return c.add("path-removed", where, `${path} removed`, "base");
      const until = published && addMonths(published, supportMonths(b));
      if (!published || !until)
        c.add("path-removed", where, `${path} removed and no successor is published`, "base");
      else if (today(options) < until) {
        c.add(
          "v1-path-removed-before-support-ends",
          where,
          `${path} removed before ${until} (successor published ${published})`,
          "base",
        );
      } else
        c.add(
          "v1-path-retired",
          where,
          `${path} retired after the support period (successor published ${published})`,
          "base",
        );
    },
  };
}

/**
 * Across majors: /api/v1/x pairs with /api/v2/x, or with the v2 path carrying the same
 * operationId; a v1 operation without a counterpart is a migration note.
 */
export function crossMajorPaths(b: Json): PathPolicy {
  const from = String(versioning(b).path_prefix ?? "/api/v1");
  const to = successorPrefix(b);
  return {
    followOperationIds: true,
    counterpart: (p) => (under(p, from) ? to + p.slice(from.length) : p),
    removed(c, path, at) {
      c.add(
        "operation-not-in-successor",
        { ...at, operation: path },
        `${path} has no counterpart under ${to}`,
        "base",
      );
    },
  };
}

/** Where v1 promised its successor would live (x-versioning.successor_path_prefix). */
export function successorPrefix(b: Json): string {
  return String(versioning(b).successor_path_prefix ?? "/api/v2");
}

/** Across majors: every path of the new document lives under its prefix. */
export function checkSuccessorPrefix(c: Collector, b: Json, h: Json): void {
  const prefix = successorPrefix(b);
  for (const path of Object.keys(obj(h.paths))) {
    if (!under(path, prefix)) {
      c.add(
        "v2-path-outside-prefix",
        { base: ["paths"], head: ["paths", path], operation: path },
        `${path} is not under ${prefix}`,
      );
    }
  }
}

/**
 * v1's end-of-life announcements, in the v1 document (`doc`, on `side`): `x-versioning.sunset`
 * and `deprecated_since` dates, and on operations under the v1 prefix an `x-sunset` date or a
 * documented `Deprecation` or `Sunset` response header (announced as of `today`). Each must fall at least the support
 * period after the successor's publication.
 */
export function checkAnnouncements(
  c: Collector,
  doc: Json,
  side: "base" | "head",
  published: string | undefined,
  options: DiffOptions,
): void {
  const earliest = published && addMonths(published, supportMonths(doc));
  const tokens = (t: string[]): At => ({ base: side === "base" ? t : [], head: side === "head" ? t : [] });
  const check = (
    rule: "sunset-too-early" | "deprecation-announced-too-early",
    date: string,
    at: At,
    what: string,
  ) => {
    if (!earliest) c.add(rule, at, `${what} ${date}, but no successor is published`, side);
    else if (date < earliest)
      c.add(rule, at, `${what} ${date} is before ${earliest} (successor published ${published})`, side);
  };
  const v = versioning(doc);
  const sunset = isoDate(v.sunset);
  if (sunset) check("sunset-too-early", sunset, tokens(["x-versioning", "sunset"]), "v1 sunset");
  const since = isoDate(v.deprecated_since);
  if (since)
    check(
      "deprecation-announced-too-early",
      since,
      tokens(["x-versioning", "deprecated_since"]),
      "v1 deprecated since",
    );
  // Only the versioned API announces the major's end; deprecating the legacy file or RSS is an operation's own affair.
  const prefix = String(v.path_prefix ?? "/api/v1");
  for (const [path, item] of Object.entries(obj(doc.paths))) {
    if (!under(path, prefix)) continue;
    for (const [method, op] of Object.entries(obj(item))) {
      if (!isObject(op)) continue;
      const label = `${method.toUpperCase()} ${path}`;
      const opSunset = isoDate(op["x-sunset"]);
      if (opSunset)
        check(
          "sunset-too-early",
          opSunset,
          { ...tokens(["paths", path, method, "x-sunset"]), operation: label },
          `${label} sunset`,
        );
      for (const [status, response] of Object.entries(obj(op.responses))) {
        const header = Object.keys(obj(obj(response).headers)).find((n) => /^(deprecation|sunset)$/i.test(n));
        if (!header) continue;
        const at = {
          ...tokens(["paths", path, method, "responses", status, "headers", header]),
          operation: label,
        };
        check("deprecation-announced-too-early", today(options), at, `${label} sends ${header} as of`);
        break;
      }
    }
  }
}
