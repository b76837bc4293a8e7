import { describe, expect, it } from "vitest";
import { formatHtml, kindOf } from "./html.ts";
import { capText, escapeHtml } from "./html-escape.ts";
import { failingRun, hostileRun } from "./html-fixtures.ts";
import { PLAN_ROWS } from "./html-plan.ts";

const count = (html: string, re: RegExp) => html.match(re)?.length ?? 0;

describe("the HTML report: what it holds", () => {
  const report = failingRun();
  const html = formatHtml(report);

  it("puts the verdict and its root causes before anything else", () => {
    const verdict = html.indexOf("<h1>Failed: 3 checks failed</h1>");
    expect(verdict).toBeGreaterThan(0);
    expect(html.indexOf("Root causes")).toBeGreaterThan(verdict);
    expect(html).toMatch(
      /<span class="sev sev-high">high<\/span> <strong>A cache answered from its storage<\/strong>: explains 1 finding of/,
    );
    expect(html.indexOf("Root causes")).toBeLessThan(html.indexOf('id="findings"'));
    expect(html.indexOf('id="findings"')).toBeLessThan(html.indexOf('id="checks"'));
  });

  it("lists the failed checks as the verdict's causes when no root cause was named", () => {
    const page = formatHtml({ ...report, causes: [] });
    expect(page).toContain("<h2>Failed checks</h2>");
    expect(page).toMatch(
      /<code>response-schema<\/code>: response-schema holds · 30 findings · <a href="#finding-1">/,
    );
  });

  it("says passed for a passing run", () => {
    const page = formatHtml({
      ...report,
      verdict: "passed" as const,
      passed: true,
      causes: [],
      checks: report.checks.filter((c) => c.status === "pass" || c.status === "skipped"),
    });
    expect(page).toContain('<section class="verdict passed"');
    expect(page).toContain("<h1>Passed</h1>");
  });

  it("has every check as a filterable row with its status, evidence and reason", () => {
    expect(count(html, /<tr data-status=/g)).toBe(report.checks.length);
    expect(html).toContain('<tr data-status="fail" data-kind="rule" data-operations="listAlerts">');
    expect(html).toContain('<tr data-status="pass" data-kind="relation" data-operations="searchAlerts">');
    expect(html).toContain('data-status="not-exercised" data-kind="protocol" data-operations="listMyAlerts"');
    expect(html).toContain("no account: give --uid and --api-key");
    expect(html).toContain("<td>12 of 20</td>");
    for (const id of ["f-status", "f-kind", "f-operation"]) expect(html).toContain(`<select id="${id}">`);
    expect(html).toContain('<option value="relation">relation (relation:*)</option>');
    expect(html).toContain('<option value="listMyAlerts">listMyAlerts</option>');
  });

  it("makes each finding expandable, with its request, answer, received, documented and replay copyable", () => {
    expect(count(html, /<details class="finding"/g)).toBe(32);
    const first = html.slice(
      html.indexOf('<details class="finding" id="finding-1"'),
      html.indexOf("</details>"),
    );
    for (const part of ["request", "received", "documented", "replay"])
      expect(first).toContain(`<button type="button" data-copy="finding-1-${part}"`);
    expect(first).toContain("<dt>status</dt><dd>200</dd><dt>content-type</dt><dd>application/json</dd>");
    expect(first).toContain("curl -sS &#39;http://127.0.0.1:8080/v1/searchAlerts?limit=0&#39;");
    expect(html).toContain('data-copy="finding-32-reproduce"');
  });

  it("gives the run's facts and notes", () => {
    expect(html).toContain("<dt>seed</dt><dd>42</dd>");
    expect(html).toContain("<dt>rate in force</dt><dd>60 requests per 60 s</dd>");
    expect(html).toContain("<dt>requests</dt><dd>200 requests</dd>");
    expect(html).toContain("<dt>duration</dt><dd>160.5 s</dd>");
    expect(html).toContain("<li>one source address: requests paced at the advertised rate</li>");
  });

  it("draws the timeline: one dot per request in its status lane, the phases and the rate windows", () => {
    expect(count(html, /<circle class="dot/g)).toBe(200);
    const lanes = report.timeline ?? [];
    expect(count(html, /class="dot l-429"/g)).toBe(lanes.filter((p) => p.status === 429).length);
    expect(count(html, /class="dot l-failure"/g)).toBe(lanes.filter((p) => p.status === 0).length);
    expect(count(html, /<line class="window"/g)).toBe(3);
    expect(html).toMatch(/<text class="phase"[^>]*>wait<\/text>/);
  });

  it("names a phase too short for its band above it (a one-address burst lasts a second of two minutes)", () => {
    const timeline = (report.timeline ?? []).map((p, i) => ({
      ...p,
      phase:
        i < 4
          ? ("discovery" as const)
          : i < 8
            ? ("burst" as const)
            : i < 100
              ? ("wait" as const)
              : ("plan" as const),
      at: i < 8 ? i * 100 : p.at,
    }));
    const page = formatHtml({ ...report, timeline });
    const labels = [...page.matchAll(/<text class="phase" x="([\d.]+)" y="(\d+)">(\w+)<\/text>/g)];
    const named = labels.map((m) => m[3]);
    expect(named).toEqual(expect.arrayContaining(["wait", "plan", "burst"]));
    // Two labels on one row never overlap.
    for (const a of labels)
      for (const b of labels)
        if (a !== b && a[2] === b[2]) expect(Math.abs(Number(a[1]) - Number(b[1]))).toBeGreaterThan(30);
    // None runs past the picture's right edge (960).
    for (const m of labels) expect(Number(m[1]) + (m[3]?.length ?? 0) * 6.5).toBeLessThanOrEqual(960);
  });

  it("leaves the timeline out when the report has none (a passive run, an older JSON report)", () => {
    const { timeline: _, ...passive } = report;
    expect(formatHtml({ ...passive, mode: "passive" })).not.toContain("<svg");
  });

  it("stays self-contained and under 1 MB for a failing run of 200 requests", () => {
    expect(Buffer.byteLength(html)).toBeLessThan(1_000_000);
    expect(html).not.toMatch(/\s(src|href)="(https?:)?\/\//);
    expect(html).not.toMatch(/<link|@import|url\(/);
    expect(html).not.toContain("innerHTML");
    expect(html).toContain("default-src 'none'");
  });
});

describe("the HTML report: the plan, and the timeline's links into the exchanges", () => {
  const report = failingRun();
  const html = formatHtml(report);
  const timeline = report.timeline ?? [];

  it("shows each cause's failing request in the verdict, before any finding", () => {
    const verdict = html.slice(0, html.indexOf('id="findings"'));
    // The cause's first finding (rule:price-format's) has no exchange: its curl line.
    expect(verdict).toContain(
      'first finding</a><br><code class="failing-request">curl -sS &#39;http://127.0.0.1:8080/v1/listAlerts?limit=1&#39;</code>',
    );
    const page = formatHtml({ ...report, causes: [] });
    // A failed check's first finding came from exchange 1: its method, URL and answer.
    expect(page).toContain(
      '<a href="#finding-1">first finding</a><br><code class="failing-request">GET /v1/listAlerts?limit=1 → 200</code>',
    );
  });

  it("makes every dot a link: to its exchange's finding when it gave one, else to its row of the plan", () => {
    expect(count(html, /<a href="#[^"]+"><circle class="dot/g)).toBe(timeline.length);
    // response-schema's findings came from exchanges 1, 6, 11...: finding-1 is the first of them.
    expect(html).toMatch(
      /<a href="#finding-1"><circle class="dot l-2xx" cx="[\d.]+" cy="[\d.]+" r="3"><title>0\.8 s: listAlerts/,
    );
    const overLimit = timeline.findIndex((p) => p.status === 429);
    expect(html).toMatch(
      new RegExp(
        `<a href="#finding-32"><circle class="dot l-429"[^>]*><title>${(overLimit * 0.8).toFixed(1)} s`,
      ),
    );
    expect(html).toMatch(/<a href="#req-3"><circle class="dot/);
    // Every link leads to an element of the page.
    const ids = new Set([...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));
    for (const [, href] of html.matchAll(/href="#([^"]+)"/g)) expect(ids.has(href)).toBe(true);
  });

  it("lists what the requests were for, and every request with its phase, purpose and answer", () => {
    const plan = html.slice(html.indexOf('id="plan"'), html.indexOf('id="checks"'));
    expect(plan).toContain(`What the run's ${timeline.length} requests were for:`);
    const planned = timeline.filter((p) => p.phase === "plan").length;
    expect(plan).toMatch(
      new RegExp(`<li><strong>plan</strong>: ${planned} requests(, 1 without a whole or sound answer)?</li>`),
    );
    expect(plan).toMatch(/<li><strong>over-limit<\/strong>: \d+ requests<\/li>/);
    expect(count(plan, /<tr id="req-\d+">/g)).toBe(timeline.length);
    expect(plan).toContain(
      '<tr id="req-2"><td>2</td><td>0.8</td><td>discovery</td><td><code>GET /v1/listAlerts?limit=1</code></td><td>discovery</td><td class="l-2xx">200</td><td><a href="#finding-1">finding</a></td></tr>',
    );
    expect(plan).toContain("<td>plan: rule:price-format, boundary of limit</td>");
  });

  it("lists at most PLAN_ROWS requests, and says how many more there were", () => {
    const big = failingRun(PLAN_ROWS + 7);
    const page = formatHtml(big);
    expect(count(page, /<tr id="req-\d+">/g)).toBe(PLAN_ROWS);
    expect(page).toContain("7 later requests not listed.");
    // Past the table, a dot links to its finding or to nothing.
    expect(page).toMatch(
      new RegExp(`<circle class="dot[^>]*><title>${(((PLAN_ROWS + 3) * 800) / 1000).toFixed(1)} s`),
    );
  });
});

describe("the HTML report: escaped throughout", () => {
  const html = formatHtml(hostileRun());

  it("lets no tag or attribute of the target's text through", () => {
    expect(count(html, /<script/gi)).toBe(1);
    expect(count(html, /<\/style/gi)).toBe(1);
    expect(html).not.toMatch(/<(img|svg onload|b>)/i);
    // Attribute values hold the target's text escaped; outside them no tag may carry a handler.
    const outsideValues = html.replace(/"[^"]*"/g, '""');
    expect(outsideValues).not.toMatch(/<[^>]*\son(error|load)\s*=/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;");
  });

  it("replaces lone surrogates (the file is valid UTF-8)", () => {
    expect(html).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect(Buffer.from(html, "utf8").toString("utf8")).toBe(html);
    expect(html).toContain("lone \uFFFD high and \uFFFD low surrogates");
  });

  it("caps a 1 MB line with a visible count of what was left out", () => {
    expect(Buffer.byteLength(html)).toBeLessThan(100_000);
    expect(html).toMatch(/… 99\d{4} more characters/);
    expect(html).not.toContain("tail()");
  });
});

describe("the HTML report's helpers", () => {
  it("escapes the five characters that matter in content and attributes", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
  });

  it("never cuts a surrogate pair in two", () => {
    const capped = capText(`${"a".repeat(9)}😀tail`, 10);
    expect(capped).toBe(`${"a".repeat(9)}… 6 more characters`);
  });

  it("tells a check's kind by its name", () => {
    expect([kindOf("rule:price"), kindOf("relation:subset"), kindOf("cors")]).toEqual([
      "rule",
      "relation",
      "protocol",
    ]);
  });
});
