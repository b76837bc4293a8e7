import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { AcceptEntry } from "../accept/list.ts";
import { SPEC_PATH } from "../spec/paths.ts";
import { acceptChanges } from "./accept.ts";
import { format } from "./format/index.ts";
import { diffEdit, get, param, spec, TODAY } from "./testing.ts";
import type { DiffResult } from "./types.ts";

const entry = (rule: string, expires: string, reason: string): AcceptEntry => ({
  match: { rule },
  reason,
  expires,
});

/**
 * One breaking change accepted, one warning left open, one entry past its date and one that
 * matched nothing: every format shows all four.
 */
let r: DiffResult;
beforeAll(async () => {
  const compared = await diffEdit((d) => {
    param(d, "RankLimit").schema.maximum = 200;
    get(d, "/api/v1/rank").responses["404"] = { description: "Nothing here." };
  });
  r = acceptChanges(
    compared,
    [
      entry("request-bound-narrowed", "2026-12-31", "no client asks above 200, OPS-9"),
      entry("servers-changed", "2026-11-24", "staging host, OPS-3"),
      entry("path-removed", "2026-12-31", "old, OPS-1"),
    ],
    TODAY,
  );
});

const EXPIRED =
  "accepted change expired, it fails the gate: rule servers-changed (until 2026-11-24: staging host, OPS-3)";
const UNUSED =
  "accepted change not in this diff, the entry can go: rule path-removed (until 2026-12-31: old, OPS-1)";

describe("formats with --accept", () => {
  it("text: the accepted finding keeps its line, marked; the entries that need a hand before the summary", () => {
    const lines = format(r, "text").split("\n");
    expect(lines[0]).toBe(
      "BREAKING request-bound-narrowed GET /api/v1/rank (query limit) #/components/parameters/RankLimit/schema/maximum: query limit: maximum 300 → 200 [accepted until 2026-12-31: no client asks above 200, OPS-9]",
    );
    expect(lines[1]).toMatch(/^WARNING response-status-added .*response 404 added$/);
    expect(lines.slice(-4)).toEqual([
      EXPIRED,
      UNUSED,
      "1 accepted (--accept): shown, not failing",
      "1 breaking, 1 warnings, 0 info",
    ]);
  });

  it("markdown: the verdict counts what is open; accepted findings get their own section", () => {
    const md = format(r, "markdown");
    expect(md).toContain("## dealkit diff: ❌ an accepted change expired\n");
    expect(md).toContain("| ✅ Accepted, not failing | 1 |");
    expect(md).not.toContain("### 🔴 Breaking");
    expect(md).toContain("### 🟡 Warning (1)");
    expect(md).toContain(
      "### ✅ Accepted, not failing (1)\n\n| Rule | Where | Change |\n|---|---|---|\n| `request-bound-narrowed` |",
    );
    expect(md).toContain(
      "maximum 300 → 200<br>✅ accepted until 2026-12-31: no client asks above 200, OPS-9 |",
    );
    expect(md).toContain(`**${EXPIRED}**`);
    expect(md).toContain(`<sub>${UNUSED}</sub>`);
    const fresh = acceptChanges(r, [entry("request-bound-narrowed", "2026-12-31", "OPS-9")], TODAY);
    expect(format(fresh, "markdown")).toContain("## dealkit diff: ✅ no open breaking change (1 accepted)\n");
  });

  it("json: accepted on the finding, the entries as written under acceptance", () => {
    const parsed = JSON.parse(format(r, "json"));
    expect(Object.keys(parsed)).toEqual(["mode", "base", "head", "summary", "acceptance", "findings"]);
    expect(parsed.findings[0].accepted).toEqual({
      reason: "no client asks above 200, OPS-9",
      expires: "2026-12-31",
    });
    expect(parsed.findings[1].accepted).toBeUndefined();
    expect(parsed.acceptance).toEqual({
      accepted: 1,
      expired: [{ rule: "servers-changed", reason: "staging host, OPS-3", expires: "2026-11-24" }],
      unused: [{ rule: "path-removed", reason: "old, OPS-1", expires: "2026-12-31" }],
    });
  });

  it("github: an accepted finding is a notice, an expired entry an error", () => {
    // Base and head are the current spec and one edit of it: both carry its version.
    const version: string = spec().info.version;
    const text = readFileSync(SPEC_PATH, "utf8");
    const out = format(r, "github", { path: "openapi/openapi.yaml", text }).split("\n");
    expect(out[0]).toMatch(
      /^::notice file=openapi\/openapi.yaml,line=\d+,title=request-bound-narrowed \(accepted\)::GET \/api\/v1\/rank \(query limit\): query limit: maximum 300 → 200 \[accepted until 2026-12-31: no client asks above 200, OPS-9\]$/,
    );
    expect(out[1]).toMatch(/^::warning .*title=response-status-added::/);
    expect(out.slice(-3)).toEqual([
      `::error title=dealkit diff --accept::${EXPIRED}`,
      `::notice title=dealkit diff --accept::${UNUSED}`,
      `::notice title=dealkit diff::1 breaking, 1 warnings, 0 info, 1 accepted (same-major: ${version} → ${version})`,
    ]);
  });

  it("markdown across majors: accepted versioning checks are marked and do not fail the verdict", async () => {
    const moved = await diffEdit((d) => {
      d.info.version = "2.0.0";
      d.paths = Object.fromEntries(
        Object.entries(d.paths).map(([p, item]) => [p.replace(/^\/api\/v1\//, "/api/v2/"), item]),
      );
      Object.assign(d["x-versioning"], { current: "v2", path_prefix: "/api/v2", published: "2026-10-01" });
    });
    const rss = entry("v2-path-outside-prefix", "2026-12-31", "RSS readers keep their URL");
    const one = format(
      acceptChanges(moved, [{ ...rss, match: { ...rss.match, location: "/rss.php" } }], TODAY),
      "markdown",
    );
    expect(one).toContain("❌ 1 versioning check failed.");
    expect(one).toContain(
      "/rss.php is not under /api/v2<br>✅ accepted until 2026-12-31: RSS readers keep their URL |",
    );
    const both = format(acceptChanges(moved, [rss], TODAY), "markdown");
    expect(both).toContain("✅ Versioning checks passed (new prefix, 6-month rule); 2 accepted.");
  });
});
