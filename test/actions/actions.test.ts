/**
 * The two GitHub Actions (action.yml: the suite against a URL; actions/diff/action.yml: the spec
 * diff), their steps run here as a runner would (run-action.ts), with the packed tarball as the
 * package. The install step runs as written; only `npm` is a stand-in, since the tests are
 * offline: it unpacks the tarball and links the dependencies. scripts/check-install.ts runs the
 * same action with the real npm and registry.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { type Proxy as PlantedProxy, startProxy } from "../../conformance/planted/proxy.ts";
import { PLANTED } from "../../conformance/planted/variants.ts";
import {
  consumerProject,
  manifest,
  ROOT,
  type Served,
  type Staged,
  serveFrom,
  stagePackage,
  stop,
} from "../package/stage.ts";
import { ACTIONS, type ActionRun, readAction, runAction } from "./run-action.ts";
import { standInMockTarball } from "./stand-in-mock.ts";

const KEY = "0123456789abcdef0123456789abcdef";
let staged: Staged;
let server: Served;
let planted: PlantedProxy;
let fakeBin: string;
let npmCalls: string;

/** `npm install SPEC` offline: unpacks SPEC (it must be a tarball) and links the dependencies. */
function fakeNpm(dir: string): string {
  const bin = join(dir, "fake-bin");
  mkdirSync(bin);
  const links = Object.keys(manifest.dependencies)
    .map(
      (dep) =>
        `mkdir -p "node_modules/$(dirname ${dep})"; ln -sfn "${join(ROOT, "node_modules", dep)}" "node_modules/${dep}"`,
    )
    .join("\n");
  writeFileSync(
    join(bin, "npm"),
    `#!/usr/bin/env bash
set -euo pipefail
echo "$*" >>"${join(dir, "npm-calls")}"
[ "$1" = install ] || { echo "fake npm: install only" >&2; exit 1; }
spec="\${*: -1}"
[ -f "$spec" ] || { echo "fake npm: offline, $spec is not a tarball here" >&2; exit 1; }
mkdir -p node_modules/dealkit node_modules/.bin
tar xzf "$spec" -C node_modules/dealkit --strip-components=1
${links}
ln -sfn ../dealkit/bin/dealkit.js node_modules/.bin/dealkit
`,
  );
  chmodSync(join(bin, "npm"), 0o755);
  return bin;
}

/** A job's workspace holding a copy of the tarball (the action gets it as ./dealkit.tgz). */
function workspace(name: string, files: Record<string, string> = {}): string {
  const dir = join(staged.dir, "workspaces", name);
  mkdirSync(dir, { recursive: true });
  copyFileSync(staged.tarball, join(dir, "dealkit.tgz"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const env = (): NodeJS.ProcessEnv => ({
  HOME: process.env.HOME,
  // The stand-in npm first: a real one anywhere on PATH would reach for the registry.
  PATH: [fakeBin, dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
});
const setupNode = { "actions/setup-node@v4": () => undefined };

/** What the stand-in upload-artifact was given, and the URL it answered, as the real one does. */
const uploads: { name: string; path: string; html: string }[] = [];
const uploadArtifact = {
  "actions/upload-artifact@v4": (w: Record<string, string>): Record<string, string> => {
    expect(w["if-no-files-found"]).toBe("ignore");
    const path = w.path ?? "";
    if (!existsSync(path)) return {};
    uploads.push({ name: w.name ?? "", path, html: readFileSync(path, "utf8") });
    return {
      "artifact-id": String(uploads.length),
      "artifact-url": `https://github.com/o/r/actions/runs/7/artifacts/${uploads.length}`,
    };
  },
};

function conformance(ws: string, inputs: Record<string, string>): Promise<ActionRun> {
  return runAction(ACTIONS.conformance, {
    workspace: ws,
    env: env(),
    uses: { ...setupNode, ...uploadArtifact },
    inputs: { package: "./dealkit.tgz", ...inputs },
  });
}

beforeAll(async () => {
  staged = stagePackage();
  fakeBin = fakeNpm(staged.dir);
  npmCalls = join(staged.dir, "npm-calls");
  const project = consumerProject(staged, "server", {});
  server = await serveFrom(project, { ...process.env, DEALKIT_DEMO_KEY: KEY });
  const bug = PLANTED.find((b) => b.name === "rank-content-at-small-limit");
  if (!bug) throw new Error("no planted bug rank-content-at-small-limit");
  planted = await startProxy(server.url, bug.mutation, 241);
}, 120_000);

afterAll(async () => {
  await planted?.close();
  if (server) await stop(server);
  if (staged) rmSync(staged.dir, { recursive: true, force: true });
});

describe("the action files", () => {
  const files = {
    conformance: join(ACTIONS.conformance, "action.yml"),
    diff: join(ACTIONS.diff, "action.yml"),
    client: join(ACTIONS.client, "action.yml"),
  };
  it.each(Object.entries(files))(
    "%s: no expression inside a script, every input described and used",
    (_, path) => {
      const action = readAction(path);
      const text = readFileSync(path, "utf8");
      for (const step of action.runs.steps) expect(step.run ?? "").not.toContain("${{");
      for (const [name, input] of Object.entries(action.inputs)) {
        expect((input as { description?: string }).description, name).toBeTruthy();
        expect(text, `input ${name} is never used`).toContain(`inputs.${name}`);
      }
    },
  );

  it("the workflow examples of the READMEs use the actions' real inputs", () => {
    const examples = ["conformance/README.md", "src/diff/README.md", "README.md", "mocks/README.md"].flatMap(
      (readme) =>
        [...readFileSync(join(ROOT, readme), "utf8").matchAll(/```yaml\n([\s\S]*?)```/g)].map(
          (m) => m[1] ?? "",
        ),
    );
    type Workflow = { jobs?: Record<string, { steps: { uses?: string; with?: object }[] }> };
    const uses = examples
      .map((yaml) => parse(yaml) as Workflow | unknown[])
      .flatMap((doc) => (Array.isArray(doc) ? [] : Object.values(doc?.jobs ?? {})))
      .flatMap((job) => job.steps)
      .filter((step) => step.uses?.startsWith("dealkit/dealkit"));
    expect(uses.map((s) => s.uses).sort()).toEqual(
      expect.arrayContaining(["dealkit/dealkit/actions/diff@v1", "dealkit/dealkit@v1"]),
    );
    for (const step of uses) {
      const folder = step.uses?.includes("/actions/diff")
        ? ACTIONS.diff
        : step.uses?.includes("/actions/client")
          ? ACTIONS.client
          : ACTIONS.conformance;
      const action = readAction(join(folder, "action.yml"));
      for (const input of Object.keys(step.with ?? {})) expect(Object.keys(action.inputs)).toContain(input);
    }
  });
});

describe("the conformance action", () => {
  it("passes against the reference server: JUnit file, job summary, outputs; the key stays out of the log", async () => {
    const ws = workspace("pass");
    const run = await conformance(ws, {
      "base-url": server.url,
      uid: "10001",
      "api-key": KEY,
      args: "--only rule:my-*,rule:rank-* --skip-slow",
    });
    expect(run.steps.map((s) => s.outcome)).toEqual([
      "success",
      "success",
      "success",
      "success",
      "success",
      "success",
    ]);
    expect(run.failed).toBe(false);
    const url = `https://github.com/o/r/actions/runs/7/artifacts/${uploads.length}`;
    expect(run.outputs).toEqual({
      verdict: "passed",
      "exit-code": "0",
      passed: "true",
      junit: join(ws, "dealkit-conformance.xml"),
      markdown: join(ws, "dealkit-conformance.md"),
      html: join(ws, "dealkit-conformance.html"),
      "artifact-url": url,
    });
    expect(readFileSync(run.outputs.junit ?? "", "utf8")).toMatch(/<testsuite [^>]*failures="0"/);
    // The HTML report went up as the artifact, and the summary links it below the markdown.
    expect(uploads.at(-1)).toMatchObject({ name: "dealkit-conformance-report", path: run.outputs.html });
    expect(uploads.at(-1)?.html).toContain("<h1>Passed</h1>");
    expect(run.summary).toBe(
      `${readFileSync(run.outputs.markdown ?? "", "utf8")}\n**HTML report** (verdict, findings, timeline, plan): [dealkit-conformance-report](${url}), a zip holding one page to open in a browser.\n`,
    );
    // The key reached the run: with no account the served-stream rules are "not exercised".
    expect(run.summary).toMatch(/^## ✅ dealkit conformance: passed$/m);
    expect(run.summary).toContain("14 passed, 0 failed, 0 not exercised");
    expect(run.log).toContain(`seed 7`);
    expect(run.log).not.toContain(KEY);
    expect(readFileSync(run.outputs.junit ?? "", "utf8")).not.toContain(KEY);
    // The install step resolved the workspace-relative tarball before leaving the workspace.
    expect(readFileSync(npmCalls, "utf8")).toContain(
      `install --no-audit --no-fund --loglevel=error ${ws}/dealkit.tgz`,
    );
  }, 120_000);

  it("fails against a planted bug, and still writes the summary with the failure's curl line", async () => {
    const run = await conformance(workspace("fail"), {
      "base-url": planted.url,
      args: "--only rule:rank-* --skip-slow",
    });
    expect(run.failed).toBe(true);
    expect(run.outputs["exit-code"]).toBe("1");
    expect(run.outputs.verdict).toBe("failed");
    expect(run.outputs.passed).toBe("false");
    expect(run.steps.map((s) => s.outcome)).toEqual([
      "success",
      "success",
      "success",
      "success",
      "success",
      "failure",
    ]);
    expect(run.summary).toContain("rule:rank-content-omitted");
    // The page of the failed run: its verdict names the failed check; the summary links it.
    expect(uploads.at(-1)?.html).toContain("<h1>Failed: 1 check failed</h1>");
    expect(run.summary).toContain(`(${run.outputs["artifact-url"]})`);
    expect(run.summary).toMatch(/curl /);
    expect(run.log).toMatch(/::error title=dealkit conformance::.* does not conform/);
  }, 120_000);

  it("a known finding with a future date passes; the same entry expired fails", async () => {
    const known = (expires: string) => ({
      "known.yaml": stringify([{ check: "rule:rank-content-omitted", reason: "tracked in OPS-7", expires }]),
    });
    const inputs = { "base-url": planted.url, known: "known.yaml", args: "--only rule:rank-* --skip-slow" };
    const accepted = await conformance(workspace("known-future", known("2099-12-31")), inputs);
    expect(accepted.outputs["exit-code"]).toBe("0");
    expect(accepted.summary).toContain("tracked in OPS-7");
    const expired = await conformance(workspace("known-expired", known("2020-01-01")), inputs);
    expect(expired.outputs["exit-code"]).toBe("1");
    expect(expired.summary).toMatch(/expired/i);
  }, 120_000);

  // No account: a served-stream rule is not judged and nothing fails. Incomplete, never green.
  const args = "--only rule:my-follow-count-within-limit --skip-slow";
  const incomplete: [
    string,
    { inputs: Record<string, string>; want: { failed: boolean; code: string; log: RegExp } },
  ][] = [
    [
      "fails the step by default, its reason in the annotation",
      {
        inputs: {},
        want: {
          failed: true,
          code: "3",
          log: /^::error title=dealkit conformance::incomplete: rule:my-[^:]+: no account/m,
        },
      },
    ],
    [
      "fails the step even when --allow-incomplete in args made dealkit exit 0 (the input decides)",
      {
        inputs: { args: `${args} --allow-incomplete` },
        want: {
          failed: true,
          code: "0",
          log: /^::error title=dealkit conformance::incomplete: rule:my-[^:]+: no account/m,
        },
      },
    ],
    [
      "passes the step with allow-incomplete: true, still saying incomplete",
      {
        inputs: { "allow-incomplete": "true" },
        want: {
          failed: false,
          code: "3",
          log: /^::warning title=dealkit conformance::incomplete, accepted \(allow-incomplete\): rule:my-/m,
        },
      },
    ],
  ];
  it.each(incomplete)(
    "an incomplete run %s",
    async (name, { inputs, want }) => {
      const run = await conformance(workspace(`incomplete-${want.failed}-${want.code}`), {
        "base-url": server.url,
        args,
        ...inputs,
      });
      expect(run.failed, name).toBe(want.failed);
      expect(run.steps.at(-1)?.outcome).toBe(want.failed ? "failure" : "success");
      expect(run.outputs).toMatchObject({ verdict: "incomplete", "exit-code": want.code, passed: "false" });
      expect(run.log).toMatch(want.log);
      // The summary and the page say incomplete first, with the reason, then every check not judged.
      expect(run.summary).toMatch(
        /^## 🟡 dealkit conformance: incomplete: rule:my-follow-[^:]+: no account: .*; 1 check not judged$/m,
      );
      expect(run.summary).toMatch(/^### Not judged\n\n- `?rule:my-follow-/m);
      expect(run.summary.includes("**Incomplete, accepted**")).toBe(!want.failed);
      expect(uploads.at(-1)?.html).toMatch(/<h1>Incomplete: rule:my-follow-/);
      expect(readFileSync(run.outputs.junit ?? "", "utf8")).toMatch(
        /<testcase classname="conformance" name="verdict">\n\s*<failure message="verdict: incomplete: /,
      );
    },
    120_000,
  );

  it("an install that fails still writes the summary, and the step fails", async () => {
    // The stand-in npm is offline: a registry spec cannot be installed.
    const run = await conformance(workspace("no-install"), { "base-url": server.url, package: "dealkit@1" });
    expect(run.failed).toBe(true);
    // No run, no page: nothing is uploaded.
    expect(run.steps.map((s) => s.outcome)).toEqual([
      "success",
      "failure",
      "skipped",
      "skipped",
      "success",
      "skipped",
    ]);
    expect(run.summary).toContain(
      "No report: the run stopped before writing one (dealkit was not installed)",
    );
  }, 60_000);

  it("a usage error stops the run (exit 2) and the summary says no report was written", async () => {
    const run = await conformance(workspace("usage"), {
      "base-url": server.url,
      args: "--only rule:no-such-rule",
    });
    expect(run.outputs["exit-code"]).toBe("2");
    expect(run.outputs.verdict).toBe("not-judged");
    expect(run.failed).toBe(true);
    expect(run.summary).toContain("No report: the run stopped before writing one (exit 2)");
    // The upload step ran, found no page, and gave no URL: the summary links nothing.
    expect(run.outputs["artifact-url"]).toBe("");
    expect(run.summary).not.toContain("HTML report");
    expect(run.log).toContain("no check named rule:no-such-rule");
  }, 60_000);
});

describe("the diff action", () => {
  const spec = readFileSync(join(ROOT, "openapi/openapi.yaml"), "utf8");
  const narrowed = spec.replace(/(RankLimit:[\s\S]*?maximum: )(\d+)/, "$1200");
  /** A repository whose HEAD holds the spec and whose working tree holds the change. */
  function repository(name: string, files: Record<string, string>): string {
    const ws = workspace(name, { "openapi/openapi.yaml": spec });
    const git = (...args: string[]) => execFileSync("git", args, { cwd: ws, stdio: "pipe" });
    git("init", "-q");
    git("add", "openapi/openapi.yaml");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "spec");
    for (const [path, text] of Object.entries(files)) writeFileSync(join(ws, path), text);
    return ws;
  }
  const diff = (ws: string, inputs: Record<string, string> = {}) =>
    runAction(ACTIONS.diff, {
      workspace: ws,
      env: env(),
      uses: setupNode,
      inputs: { package: "./dealkit.tgz", base: "git:HEAD:openapi/openapi.yaml", ...inputs },
    });
  const accept = (expires: string) =>
    stringify([{ rule: "request-bound-narrowed", reason: "no client asks above 200, OPS-412", expires }]);

  it("the narrowing is not in the spec already", () => {
    expect(narrowed).not.toBe(spec);
  });

  it("a breaking change fails with an annotation on the spec and a markdown summary", async () => {
    const run = await diff(repository("breaking", { "openapi/openapi.yaml": narrowed }));
    expect(run.outputs["exit-code"]).toBe("1");
    expect(run.failed).toBe(true);
    expect(run.log).toMatch(/^::error file=openapi\/openapi\.yaml,line=\d+,title=request-bound-narrowed::/m);
    expect(run.summary).toContain("request-bound-narrowed");
    expect(run.summary).toMatch(/^#/m);
  }, 60_000);

  it("an accepted change passes, still annotated; an expired acceptance fails", async () => {
    const ok = await diff(
      repository("accepted", { "openapi/openapi.yaml": narrowed, "accept.yaml": accept("2099-12-31") }),
      {
        accept: "accept.yaml",
      },
    );
    expect(ok.outputs["exit-code"]).toBe("0");
    expect(ok.failed).toBe(false);
    expect(ok.log).toMatch(
      /^::notice file=openapi\/openapi\.yaml,line=\d+,title=request-bound-narrowed \(accepted\)::/m,
    );
    expect(ok.summary).toContain("OPS-412");
    const expired = await diff(
      repository("expired", { "openapi/openapi.yaml": narrowed, "accept.yaml": accept("2020-01-01") }),
      { accept: "accept.yaml" },
    );
    expect(expired.outputs["exit-code"]).toBe("1");
    expect(expired.summary).toMatch(/expired/i);
  }, 60_000);

  it("an unchanged spec passes", async () => {
    const run = await diff(repository("unchanged", {}));
    expect(run.outputs["exit-code"]).toBe("0");
    expect(run.steps.every((s) => s.outcome !== "failure")).toBe(true);
  }, 60_000);
});

describe("actions/client: a client's tests against the mock with variations", () => {
  /** The action with a stand-in dealkit (stand-in-mock.ts): its wiring, offline and in seconds. */
  async function clientCheck(name: string, verdict: string, inputs: Record<string, string>) {
    const ws = workspace(name);
    const tarball = standInMockTarball(ws);
    const args = join(ws, "mock-args");
    const run = await runAction(ACTIONS.client, {
      workspace: ws,
      env: { ...env(), STAND_IN_ARGS: args, STAND_IN_VERDICT: verdict },
      uses: setupNode,
      inputs: { package: tarball, prism: "", port: "0", "mock-variations": "7", ...inputs },
    });
    if (!existsSync(args)) throw new Error(`the stand-in mock never started:\n${run.log}`);
    const mockArgs = readFileSync(args, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as string[]);
    return { run, ws, mockArgs };
  }
  // The command a client's job runs: one request, recording the variations the answer carried.
  const command = `node -e 'fetch(process.env.DEALKIT_MOCK_URL + "/api/v1/meta").then((r) => require("fs").writeFileSync("seen", r.headers.get("x-dealkit-variations") ?? "none"))'`;

  it.each([
    [
      "a clean report and passing tests pass",
      {
        verdict: "passed",
        inputs: { command },
        want: {
          failed: false,
          verdict: "passed",
          log: /dealkit mock at http:\/\/127\.0\.0\.1:\d+ with variations \(seed 7\)/,
        },
      },
    ],
    [
      "a client breaking the contract fails, naming the finding",
      {
        verdict: "failed",
        inputs: { command },
        want: {
          failed: true,
          verdict: "failed",
          log: /::error title=dealkit client check::the clients report is failed \(1 client, failed\): 127\.0\.0\.1: client-waits-retry-after: retried 3 times at once/,
        },
      },
    ],
    [
      "failing tests fail even with a clean report",
      {
        verdict: "passed",
        inputs: { command: `${command} && exit 3` },
        want: {
          failed: true,
          verdict: "failed",
          log: /the client's tests failed against the mock \(exit 3\)/,
        },
      },
    ],
  ] as [
    string,
    {
      verdict: string;
      inputs: Record<string, string>;
      want: { failed: boolean; verdict: string; log: RegExp };
    },
  ][])(
    "%s",
    async (name, { verdict, inputs, want }) => {
      const { run, ws, mockArgs } = await clientCheck(name.replace(/\W+/g, "-"), verdict, inputs);
      expect(run.failed, run.log).toBe(want.failed);
      expect(run.outputs.verdict).toBe(want.verdict);
      expect(run.log).toMatch(want.log);
      // The mock was started with the variations' seed and the report file; the command reached it.
      expect(mockArgs).toEqual([
        ["mock", "--port", "0", "--clients-report", "json=dealkit-clients.json", "--variations", "7"],
      ]);
      expect(readFileSync(join(ws, "seen"), "utf8")).toBe("added-fields,keys-shuffled");
      expect(JSON.parse(readFileSync(run.outputs["clients-report"] ?? "", "utf8"))).toMatchObject({
        verdict,
      });
      expect(run.summary).toContain(`## dealkit clients: ${verdict}`);
    },
    60_000,
  );

  it("an empty mock-variations serves the answers unvaried", async () => {
    const { run, ws, mockArgs } = await clientCheck("unvaried", "passed", { command, "mock-variations": "" });
    expect(run.failed, run.log).toBe(false);
    expect(mockArgs[0]).not.toContain("--variations");
    expect(readFileSync(join(ws, "seen"), "utf8")).toBe("");
  }, 60_000);
});
