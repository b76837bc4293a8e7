/**
 * dealkit judge --clients on the command line: recorded traffic judged as the clients' (exit 0 no
 * finding, 1 a finding, 2 a usage error or a file that is not traffic), the reports written.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../main.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "dealkit-judge-clients-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** One exchange of the kit's NDJSON, `at` seconds into the recording. */
const line = (at: number, path: string, status: number, responseHeaders: Record<string, string> = {}) =>
  `${JSON.stringify({
    kind: "exchange",
    method: "GET",
    url: `http://127.0.0.1:8080${path}`,
    requestHeaders: { "user-agent": "script/1.0" },
    client: "127.0.0.5",
    status,
    responseHeaders,
    body: "{}",
    startedAt: 1_795_644_000 + at,
    receivedAt: 1_795_644_000 + at + 0.01,
  })}\n`;

const RECORDINGS: Record<string, string> = {
  clean: line(0, "/api/v1/meta", 200) + line(1, "/api/v1/feed", 200),
  early: line(0, "/api/v1/feed", 429, { "retry-after": "12" }) + line(0.5, "/api/v1/feed", 200),
  elsewhere: line(0, "/static/app.js", 200).replace("127.0.0.1:8080", "cdn.invalid"),
  garbage: "<html>not traffic</html>\n",
};

async function judge(args: string[]): Promise<number> {
  const spies = [vi.spyOn(console, "log"), vi.spyOn(console, "error")].map((s) =>
    s.mockImplementation(() => {}),
  );
  try {
    return await main(["judge", ...args]);
  } finally {
    for (const s of spies) s.mockRestore();
  }
}

describe("dealkit judge --clients (CLI)", () => {
  it.each([
    ["traffic with no finding", "clean", 0],
    ["a request 0.5 s after a 429 that asked 12 s", "early", 1],
    ["a recording with no exchange of the API", "elsewhere", 2],
    ["a file that is not traffic", "garbage", 2],
  ])("%s: exit %s", async (_, kind, code) => {
    const file = join(dir, `${kind}.ndjson`);
    await writeFile(file, RECORDINGS[kind] ?? "");
    const report = join(dir, `${kind}.md`);
    const args = [
      "--clients",
      file,
      "--base-url",
      "http://127.0.0.1:8080",
      "--clients-report",
      `markdown=${report}`,
    ];
    expect(await judge(args)).toBe(code);
    if (code < 2)
      expect(await readFile(report, "utf8")).toMatch(code ? /^# Clients: failed/ : /^# Clients: passed/);
  });

  it("writes every format asked for", async () => {
    const file = join(dir, "formats.ndjson");
    await writeFile(file, RECORDINGS.early ?? "");
    const paths = ["json", "markdown", "html", "junit"].map((f) => [f, join(dir, `out.${f}`)] as const);
    expect(
      await judge(["--clients", file, ...paths.flatMap(([f, p]) => ["--clients-report", `${f}=${p}`])]),
    ).toBe(1);
    const [json, markdown, html, junit] = await Promise.all(paths.map(([, p]) => readFile(p, "utf8")));
    expect(JSON.parse(json ?? "")).toMatchObject({
      verdict: "failed",
      clients: [{ client: "127.0.0.5", verdict: "failed" }],
    });
    expect(markdown).toContain("**client-waits-retry-after**");
    expect(html).toContain("<b>client-waits-retry-after</b>");
    expect(junit).toContain(
      '<failure message="client-waits-retry-after: retried 0.5 s after a 429 to GET /api/v1/feed that asked Retry-After: 12',
    );
  });

  it("reads a browser's HAR as one client, labelled by its User-Agent", async () => {
    const entry = (at: number, status: number, headers: { name: string; value: string }[]) => ({
      startedDateTime: new Date(Date.UTC(2026, 11, 7, 4, 0, at)).toISOString(),
      time: 20,
      request: {
        method: "GET",
        url: "https://deals.example/api/v1/feed",
        headers: [{ name: "User-Agent", value: "Firefox/140" }],
      },
      response: { status, headers, content: { text: "{}" } },
    });
    const har = {
      log: {
        entries: [
          entry(0, 429, [{ name: "Retry-After", value: "30" }]),
          entry(2, 429, [{ name: "Retry-After", value: "28" }]),
        ],
      },
    };
    const file = join(dir, "session.har");
    await writeFile(file, JSON.stringify(har));
    const json = join(dir, "session.json");
    expect(await judge(["--clients", file, "--clients-report", `json=${json}`])).toBe(1);
    const report = JSON.parse(await readFile(json, "utf8"));
    expect(report.clients).toMatchObject([
      {
        client: "recorded client",
        userAgents: ["Firefox/140"],
        findings: [{ rule: "client-waits-retry-after" }],
      },
    ]);
  });

  it.each([
    ["an unknown report format", ["--clients-report", "pdf=out.pdf"]],
    ["--report with --clients", ["--report", "json=out.json"]],
  ])("refuses %s as a usage error", async (_, extra) => {
    const file = join(dir, "usage.ndjson");
    await writeFile(file, RECORDINGS.clean ?? "");
    expect(await judge(["--clients", file, ...extra])).toBe(2);
  });
});
