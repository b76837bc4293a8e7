/**
 * dealkit judge on the command line: exit codes as the suite's (0 clean, 1 a violation, 2 nothing
 * it can judge), and a file it cannot read said in one line. What it judges is tested with the
 * passive judge (conformance/passive/judge.test.ts).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startBundledServer, type Target } from "../../conformance/runner/target.ts";
import { main } from "../main.ts";
import { run as runJudge } from "./judge.ts";

let server: Target;
let dir: string;

beforeAll(async () => {
  server = await startBundledServer();
  dir = await mkdtemp(join(tmpdir(), "dealkit-judge-cli-"));
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const quiet = () => {};

describe("dealkit judge (CLI)", () => {
  it.each([
    ["a clean recording", "clean", 0],
    ["a recording with a violation", "broken", 1],
    ["a file that is not there", "missing", 2],
    ["a file that is neither HAR nor NDJSON", "garbage", 2],
  ])("exits as the suite does: %s", async (_name, kind, code) => {
    const file = join(dir, `${kind}.ndjson`);
    // Identity: fetch would undo a coding and keep its Content-Encoding, a recording no proxy makes.
    const answer = await fetch(`${server.baseUrl}/api/v1/feed?limit=2`, {
      headers: { "accept-encoding": "identity" },
    });
    const line = (body: string) =>
      `${JSON.stringify({
        kind: "exchange",
        method: "GET",
        url: `${server.baseUrl}/api/v1/feed?limit=2`,
        requestHeaders: {},
        status: 200,
        responseHeaders: Object.fromEntries(answer.headers),
        body,
        startedAt: 1,
        receivedAt: 2,
      })}\n`;
    if (kind === "clean") await writeFile(file, line(await answer.text()));
    if (kind === "broken") await writeFile(file, line('{"data":"nope"}'));
    if (kind === "garbage") await writeFile(file, "<html>not traffic</html>\n");
    const args = [
      "judge",
      file,
      ...(kind === "missing" ? [] : ["--report", `json=${join(dir, `${kind}.json`)}`]),
    ];
    const log = console.log;
    const error = console.error;
    console.log = quiet;
    console.error = quiet;
    try {
      expect(await main(args)).toBe(code);
    } finally {
      console.log = log;
      console.error = error;
    }
  });
});

describe("dealkit judge on files it cannot judge", () => {
  it("a HAR whose headers are not a list, or a file with no exchange, exits 2 in one line", async () => {
    const dir = await mkdtemp(join(tmpdir(), "dealkit-judge-bad-"));
    const bad = join(dir, "bad.har");
    await writeFile(
      bad,
      JSON.stringify({
        version: "1.2",
        log: {
          entries: [
            {
              request: { method: "GET", url: "http://x/api/v1/meta", headers: { a: "b" } },
              response: { status: 200 },
            },
          ],
        },
      }),
    );
    const empty = join(dir, "empty.har");
    await writeFile(empty, JSON.stringify({ log: { entries: [] } }));
    const lines: string[] = [];
    const spy = vi
      .spyOn(console, "error")
      .mockImplementation((...a: unknown[]) => void lines.push(a.join(" ")));
    try {
      expect(await runJudge([bad])).toBe(2);
      expect(await runJudge([empty])).toBe(2);
    } finally {
      spy.mockRestore();
      await rm(dir, { recursive: true, force: true });
    }
    expect(lines[0]).toMatch(/bad\.har: entry 0: headers must be a list/);
    expect(lines[1]).toMatch(/empty\.har: it holds no exchange/);
  });
});

describe("dealkit judge refuses input that is not what it claims: exit 2, the file and the reason", () => {
  const exchange = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({ kind: "exchange", method: "GET", url: "http://x/api/v1/meta", status: 200, ...extra });
  it.each([
    [
      "a HAR without log.entries",
      { given: { "x.har": '{"log":{}}' }, want: "DIR/x.har: not a HAR file (no log.entries list)" },
    ],
    [
      "a HAR that does not parse",
      {
        given: { "x.har": '{"log": {"entries": [,]}}' },
        want: "DIR/x.har:1:22: Unexpected , in flow sequence\n\n",
      },
    ],
    [
      "an NDJSON line with no kind",
      {
        given: { "x.ndjson": `${exchange()}\n{"method":"GET"}\n` },
        want: 'DIR/x.ndjson: line 2 is not an exchange (no "kind")',
      },
    ],
    [
      "an NDJSON line that is not JSON",
      { given: { "x.ndjson": `${exchange()}\n\n{oops\n` }, want: "DIR/x.ndjson: line 3 is not JSON (" },
    ],
    [
      "an NDJSON exchange without a URL",
      {
        given: { "x.ndjson": `${exchange()}\n${exchange({ url: 1 })}\n` },
        want: "DIR/x.ndjson: line 2: exchange without a string url",
      },
    ],
    [
      "--ledger that does not parse",
      {
        given: { "x.ndjson": `${exchange()}\n`, "ledger.json": '{\n  "format": [,\n}\n' },
        want: '--ledger DIR/ledger.json:2:14: Unexpected , in flow sequence\n\n  "format": [,\n             ^',
      },
    ],
    [
      "--spec that is not a spec",
      {
        given: { "x.ndjson": `${exchange()}\n`, "spec.yaml": "hello: world\n" },
        want: '--spec DIR/spec.yaml: not an OpenAPI document: it has no "openapi" field',
      },
    ],
    [
      "--spec that is not there",
      {
        given: { "x.ndjson": `${exchange()}\n` },
        want: "--spec DIR/spec.yaml: cannot be read (no such file)",
      },
    ],
  ])("%s", async (name, { given, want }) => {
    const at = await mkdtemp(join(tmpdir(), "dealkit-judge-input-"));
    for (const [file, text] of Object.entries(given)) await writeFile(join(at, file), text);
    const recording = join(at, Object.keys(given)[0] as string);
    const errors: string[] = [];
    vi.spyOn(console, "log").mockImplementation(() => {});
    vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void errors.push(a.join(" ")));
    try {
      const option = /^--(spec|ledger)/.exec(name)?.[1];
      const named = option ? [`--${option}`, join(at, option === "spec" ? "spec.yaml" : "ledger.json")] : [];
      expect(await main(["judge", recording, ...named])).toBe(2);
    } finally {
      vi.restoreAllMocks();
      await rm(at, { recursive: true, force: true });
    }
    expect(errors.join("\n")).toContain(`dealkit judge: ${want.replace("DIR", at)}`);
  });
});
