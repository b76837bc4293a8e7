import { describe, expect, it } from "vitest";
import { HOSTILE } from "./html-fixtures.ts";
import { matrixCode, matrixOf } from "./matrix.ts";
import { broken, reference, reports } from "./matrix-fixtures.ts";
import { formatMatrixJunit } from "./matrix-formats.ts";
import { formatMatrixHtml } from "./matrix-html.ts";
import { formatMatrixMarkdown } from "./matrix-markdown.ts";

describe("the matrix of targets", () => {
  const matrix = matrixOf(reports);

  it("has one row a check (the union, in order) and one cell a target", () => {
    expect(matrix.rows.map((r) => r.check)).toEqual([...broken.checks.map((c) => c.name), "rule:newer"]);
    const status = (check: string) =>
      matrix.rows.find((r) => r.check === check)?.cells.map((c) => c?.status ?? "absent");
    expect(status("response-schema")).toEqual(["pass", "pass", "fail"]);
    expect(status("relation:search-subset")).toEqual(["pass", "not-exercised", "pass"]);
    expect(status("cors")).toEqual(["skipped", "skipped", "skipped"]);
    expect(status("rule:newer")).toEqual(["absent", "pass", "absent"]);
    expect(matrix.rows.filter((r) => r.differs).map((r) => r.check)).toEqual([
      "response-schema",
      "rule:price-format",
      "relation:search-subset",
      "rate-limit",
      "account-streams",
      "rule:newer",
    ]);
  });

  it("links a failed cell to its target's first finding, numbered as the target's section numbers them", () => {
    const rate = matrix.rows.find((r) => r.check === "rate-limit")?.cells[2];
    // response-schema holds 30 findings and rule:price-format 1: rate-limit's is the 32nd.
    expect(rate).toMatchObject({ status: "fail", findings: 1, firstFinding: 32 });
    const html = formatMatrixHtml(reports);
    expect(html).toContain('<a href="#t3-finding-32">1 finding</a>');
    expect(html).toContain('<details class="finding" id="t3-finding-32"');
    expect(html).toContain(
      '<td class="st st-fail">failed<br><span class="muted">12 of 20</span><br><a href="#t3-finding-1">30 findings</a></td>',
    );
    expect(html).toContain('<td class="st st-not-exercised" title="no matching data found">not exercised');
    expect(html).toContain('<td class="muted">not in this report</td>');
  });

  it("gives each target its own verdict, findings, timeline and plan in the page, with ids of its own", () => {
    const html = formatMatrixHtml(reports);
    expect(html).toContain("<h1>1 of 3 targets failed · 1 incomplete</h1>");
    for (const t of ["t1-", "t2-", "t3-"]) {
      expect(html).toContain(`<section class="target" id="${t}target"`);
      expect(html).toContain(`id="${t}timeline"`);
      expect(html).toContain(`id="${t}plan"`);
    }
    expect(html).toContain("<h3>Failed: 3 checks failed</h3>");
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    // Every link into the page leads to an element of it.
    for (const [, href] of html.matchAll(/href="#([^"]+)"/g)) expect(ids).toContain(href);
  });

  it("writes the same statuses as Markdown, with links to each target's section", () => {
    const md = formatMatrixMarkdown(reports);
    expect(md.startsWith("## ❌ dealkit conformance: 1 of 3 targets failed · 1 incomplete\n")).toBe(true);
    expect(md).toContain("| check | 1 | 2 | 3 |");
    expect(md).toContain(
      "| ≠ `response-schema` | ✅ passed (7/20) | ✅ passed (7/20) | ❌ failed (12/20) [30 findings](#target-3) |",
    );
    expect(md).toContain(
      "| ≠ `relation:search-subset` | ✅ passed (7/20) | ⚪ not exercised (0/20) | ✅ passed (12/20) |",
    );
    expect(md).toContain("| `cors` | ➖ not selected | ➖ not selected | ➖ not selected |");
    expect(md).toContain('<a id="target-3"></a>');
    // Each target's own report sits one level down; the curl lines' shell comments stay as they are.
    expect(md).toContain(
      "### Target 3: `http://127.0.0.1:8080`\n\n### ❌ dealkit conformance: 3 checks failed",
    );
    expect(md).toContain("#### Root causes");
    expect(md).toMatch(/```sh\n[^`]*\n# dealkit conformance --seed 42/);
  });

  it("escapes what a target wrote, in the matrix as in a report of its own", () => {
    const hostile = { ...broken, baseUrl: `http://x/${HOSTILE}` };
    const html = formatMatrixHtml([reference, hostile]);
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(formatMatrixMarkdown([reference, hostile])).toContain("\\| </style>");
  });

  it("names two reports of one base URL apart, and says the worst exit code", () => {
    expect(matrixOf([reference, reference]).targets.map((t) => t.label)).toEqual([
      "http://127.0.0.1:1001 (1)",
      "http://127.0.0.1:1001 (2)",
    ]);
    expect(matrixCode([0, 0])).toBe(0);
    expect(matrixCode([0, 1, 0])).toBe(1);
    expect(matrixCode([1, 2, 0])).toBe(2);
    expect(matrixCode([1, 130])).toBe(130);
  });

  it("sums the targets' JUnit suites", () => {
    const xml = formatMatrixJunit(reports);
    expect(xml.match(/<testsuite /g)?.length).toBe(3);
    expect(xml).toMatch(
      /<testsuites name="dealkit conformance" tests="\d+" failures="5" skipped="\d+" errors="0"/,
    );
  });
});
