/**
 * request-gate behind real proxies (x-request-gate): with their defaults, Varnish, HAProxy and
 * Apache httpd answer requests the API would serve or refuse itself (Varnish's empty 400 past 8 KB
 * of one header line, HAProxy's 400 page for a 15.75 KB head, httpd's 400 and 404 pages), and the
 * check fails naming another component with the answers that show it; behind the recommended
 * configs (deploy/) it passes, but for what no setting of the proxy changes: Varnish's and HAProxy's
 * parsers answer a line that is no field and a broken request line themselves. One run of the one
 * check each (about 10 requests, a few seconds). Each proxy is skipped without its program, but in
 * CI, where that fails (test/required-tool.ts).
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RunReport } from "../../conformance/runner/report.ts";
import { requireTool } from "../required-tool.ts";
import { type StartProxy, suiteBehind, unexplained } from "./behind-proxy.ts";
import { closeAllForeground } from "./foreground.ts";
import { HAPROXY_TEMPLATES, haproxyBinary, startHaproxy } from "./haproxy.ts";
import { HTTPD_TEMPLATES, httpdBinary, startHttpd } from "./httpd.ts";
import { nginxAvailable, startNginx } from "./nginx.ts";
import { startVarnish, varnishBinary } from "./varnish.ts";

afterAll(closeAllForeground);

const gateRun = (start: StartProxy): Promise<RunReport> =>
  suiteBehind(start, {}, { only: ["request-gate"], seed: 11 });

/** request-gate's finding codes, without the check's prefix. */
const codes = (r: RunReport) =>
  (r.checks.find((c) => c.name === "request-gate")?.violations ?? [])
    .map((v) => v.code.replace("request-gate/", ""))
    .sort();

/** The recommended template with the lines x-request-gate added taken out again: the proxy's defaults. */
async function withoutGateLines(templatesDir: string, file: string, directives: RegExp): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "dealkit-gate-templates-"));
  await cp(templatesDir, dir, { recursive: true });
  const text = await readFile(join(dir, file), "utf8");
  await writeFile(
    join(dir, file),
    text
      .split("\n")
      .filter((l) => !directives.test(l.trim()))
      .join("\n"),
  );
  return dir;
}

/** Every finding the report has is explained by another component in front, shown by these signs. */
function expectProxyNamed(
  report: RunReport,
  sign: string,
  unexplainedCodes: string[] = [],
  server?: string,
): void {
  expect(report.causes.map((c) => c.id)).toEqual(["another-component-gate"]);
  if (server) expect(report.causes[0]?.title).toContain(`(Server: ${server})`);
  expect(report.causes[0]?.evidence.every((line) => line.includes(sign))).toBe(true);
  expect(unexplained(report).map((u) => /request-gate\/([\w-]+)/.exec(u)?.[1])).toEqual(unexplainedCodes);
}

const tools = {
  apache2: { available: httpdBinary() !== undefined, install: "apt-get install -y apache2" },
  haproxy: { available: haproxyBinary() !== undefined, install: "apt-get install -y haproxy" },
  varnishd: { available: varnishBinary() !== undefined, install: "apt-get install -y varnish" },
  nginx: { available: nginxAvailable(), install: "apt-get install -y nginx" },
};
const runnable = (name: keyof typeof tools) =>
  requireTool({ name, ...tools[name], needs: "request-gate behind real proxies" });

describe.runIf(runnable("apache2"))("request-gate behind Apache httpd", () => {
  it("its defaults: 400 pages for heads past 8 KB, a line that is no field, no Host, a broken request line, a 404 page for %2F", async () => {
    const dir = await withoutGateLines(
      HTTPD_TEMPLATES,
      "recommended.conf",
      /^(LimitRequest|AllowEncodedSlashes|ErrorDocument|Header |LoadModule headers_module)/,
    );
    try {
      const report = await gateRun((upstream) => startHttpd("recommended", upstream, dir));
      expect(codes(report)).toEqual([
        "encoded-slash",
        "head-over-cap",
        "head-over-common-limit",
        "head-under-cap",
        "malformed-header",
        "malformed-request-line",
        "missing-host",
      ]);
      expectProxyNamed(report, "an HTML page", [], "Apache");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("recommended.conf passes", async () => {
    const report = await gateRun((upstream) => startHttpd("recommended", upstream));
    expect(codes(report)).toEqual([]);
    expect(report.verdict).toBe("passed");
  }, 60_000);
});

describe.runIf(runnable("haproxy"))("request-gate behind HAProxy", () => {
  it("its defaults: a 400 page for a 15.75 KB head and where 431 is due, the client's connection kept open after the API's 400", async () => {
    const dir = await withoutGateLines(
      HAPROXY_TEMPLATES,
      "recommended.cfg",
      /^(tune\.bufsize|http-after-response)/,
    );
    try {
      const report = await gateRun((upstream) => startHaproxy("recommended", upstream, dir));
      expect(codes(report)).toEqual([
        "head-over-cap",
        "head-under-cap",
        "malformed-header",
        "malformed-request-line",
        "missing-host",
      ]);
      // The API's own 400 for a missing Host, its connection kept open by HAProxy: no sign of another component.
      expectProxyNamed(report, "an HTML page", ["missing-host"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("recommended.cfg: only what its parser answers itself is left, and said to be HAProxy's", async () => {
    const report = await gateRun((upstream) => startHaproxy("recommended", upstream));
    expect(codes(report)).toEqual(["malformed-header", "malformed-request-line"]);
    expectProxyNamed(report, "an HTML page");
  }, 60_000);
});

describe.runIf(runnable("varnishd"))("request-gate behind Varnish", () => {
  it("its default parameters: an empty 400 for any header line past 8 KB, the 16.25 KB one too", async () => {
    const report = await gateRun((upstream) => startVarnish("recommended", upstream, undefined, []));
    expect(codes(report)).toEqual([
      "head-over-cap",
      "head-over-common-limit",
      "head-under-cap",
      "malformed-header",
      "malformed-request-line",
    ]);
    expectProxyNamed(report, "an empty body");
  }, 60_000);

  it("recommended.vcl with its parameters: only what its parser answers itself is left, and said to be Varnish's", async () => {
    const report = await gateRun((upstream) => startVarnish("recommended", upstream));
    expect(codes(report)).toEqual(["malformed-header", "malformed-request-line"]);
    expectProxyNamed(report, "an empty body");
  }, 60_000);
});

describe.runIf(runnable("nginx"))("request-gate behind nginx", () => {
  it("recommended.conf passes (its own refusals are already the API's problems)", async () => {
    const report = await gateRun((upstream) => startNginx("recommended", upstream));
    expect(codes(report)).toEqual([]);
    expect(report.verdict).toBe("passed");
  }, 60_000);
});
