/**
 * The packed package, used the ways its users use it: the CLI from node_modules/.bin, the client
 * from plain Node ESM, from TypeScript with NodeNext and with Bundler resolution, and bundled
 * for a browser. Everything runs from the tarball, not from the checkout.
 */
import { execFile, spawn } from "node:child_process";
import { readFileSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, launchChromium } from "../../src/docs/browser.ts";
import { readerDocument } from "../../src/docs/reader.ts";
import { loadSpec } from "../../src/spec/load.ts";
import { requireTool } from "../required-tool.ts";
import {
  consumerProject,
  ESM_CLIENT_SCRIPT,
  manifest,
  ROOT,
  type Served,
  type Staged,
  serveFrom,
  stagePackage,
  stop,
} from "./stage.ts";

const exec = promisify(execFile);
const browser = requireTool({
  name: "chromium",
  available: chromiumAvailable(),
  install: "apt-get install -y chromium",
  needs: "the client bundled for a browser",
});
const require = createRequire(import.meta.url);

let staged: Staged;
let cli: string;
let server: Served;

const CLIENT_TS = `import { createDealClient, DealApiError } from "dealkit/client";

const api = createDealClient({ baseUrl: "http://127.0.0.1:8080", retry: { maxRetries: 0 } });

export async function titles(): Promise<string[]> {
  const { data } = await api.rank({ act: "yixiaoshi", limit: 5 });
  // @ts-expect-error act is an enum: the types are the spec's, not any
  await api.rank({ act: "hour" });
  const { response } = await api.api.GET("/api/v1/meta");
  return [...data.map((entry) => entry.title), String(response.status)];
}

export function problemType(err: unknown): string | undefined {
  return err instanceof DealApiError ? err.type : undefined;
}
`;

beforeAll(() => {
  staged = stagePackage();
  const dir = consumerProject(staged, "cli", {});
  cli = join(dir, "node_modules/.bin/dealkit");
}, 120_000);

afterAll(() => {
  server?.child.kill("SIGKILL");
  if (staged) rmSync(staged.dir, { recursive: true, force: true });
});

describe("the tarball", () => {
  it("ships the built package only: no sources, tests or benches", () => {
    expect(staged.files).toEqual(expect.arrayContaining(["bin/dealkit.js", "package.json", "README.md"]));
    expect(staged.files).toEqual(
      expect.arrayContaining([
        "dist/openapi/openapi.yaml",
        "dist/openapi/x-conformance.schema.json",
        "dist/openapi/releases/1.0.0.yaml",
      ]),
    );
    const stray = staged.files.filter(
      (f) =>
        /\.test\.|\/planted\/|^bench\/|^scripts\//.test(f) || (f.endsWith(".ts") && !f.endsWith(".d.ts")),
    );
    expect(stray).toEqual([]);
  });

  it("holds every file the exports map names", () => {
    const targets = Object.values(manifest.exports).flatMap((t) =>
      typeof t === "string" ? [t] : [t.types, t.default],
    );
    for (const t of targets) expect(staged.files).toContain(t.replace(/^\.\//, ""));
  });

  it("exports the suite, the proxy and the judge as a library (dealkit/conformance)", async () => {
    const script = `const m = await import("dealkit/conformance");
console.log([m.runConformance, m.proxyCommand, m.judgeCommand, m.formatMarkdown].map((f) => typeof f).join(" "));`;
    const dir = join(cli, "../../..");
    const { stdout } = await exec(process.execPath, ["--input-type=module", "-e", script], { cwd: dir });
    expect(stdout.trim()).toBe("function function function function");
  });
});

describe("the CLI from the tarball", () => {
  it("starts and lists its commands", async () => {
    const { stdout } = await exec(cli, ["--help"]);
    expect(stdout).toMatch(/conformance +check an implementation/);
    expect(stdout).toMatch(/serve +run the reference server/);
    expect((await exec(cli, ["--version"])).stdout).toBe(`${manifest.version}\n`);
  });

  it("checks the bundled reference server", async () => {
    const { stdout } = await exec(cli, ["conformance", "--skip-slow", "--seed", "5"], { timeout: 90_000 });
    // --skip-slow leaves rate-limit's wait unjudged: a pass in part, counted apart.
    expect(stdout).toMatch(/\n\d+ passed \(1 of them in part\), 0 failed, 0 not exercised, 0 skipped;/);
  }, 120_000);

  it("says how to add an optional peer a command needs (Prism for the mock)", async () => {
    const failure = await exec(cli, ["mock", "--port", "0"]).then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr.trim()).toBe(
      `dealkit mock: the mock needs @stoplight/prism-cli, an optional peer dependency of dealkit: npm install @stoplight/prism-cli@${manifest.peerDependencies["@stoplight/prism-cli"]}`,
    );
  });

  it("serves, and stops with exit 0 on SIGTERM", async () => {
    const dir = consumerProject(staged, "serve", {});
    const running = await serveFrom(dir);
    expect((await fetch(`${running.url}/api/v1/meta`)).status).toBe(200);
    expect(await stop(running)).toBe(0);
  }, 60_000);

  it("proxies and judges traffic (its judging worker is compiled JavaScript too), reporting on SIGTERM", async () => {
    const dir = consumerProject(staged, "proxy", {});
    const upstream = await serveFrom(dir);
    const child = spawn(cli, ["proxy", "--upstream", upstream.url, "--port", "0"], {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (c: Buffer) => {
        stdout += c.toString();
        const m = /dealkit proxy: (http:\/\/\S+)/.exec(stdout);
        if (m?.[1]) resolve(m[1]);
      });
      child.on("exit", (code) => reject(new Error(`dealkit proxy exited ${code}: ${stderr}`)));
    });
    expect((await fetch(`${url}/api/v1/rank?act=yixiaoshi`)).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited, stderr).toBe(0);
    expect(stdout).toMatch(/0 failed/);
    await stop(upstream);
  }, 60_000);
});

describe("the client from the tarball", () => {
  beforeAll(async () => {
    server = await serveFrom(consumerProject(staged, "server", {}));
  }, 60_000);

  it("imports from plain Node ESM and calls a server", async () => {
    const dir = consumerProject(staged, "esm", {
      "main.js": ESM_CLIENT_SCRIPT,
    });
    const { stdout } = await exec(process.execPath, ["main.js", server.url], { cwd: dir });
    const out = JSON.parse(stdout) as { entries: number; version: string; yaml: string };
    expect(out.entries).toBeGreaterThan(0);
    expect(out.version).toMatch(/^1\./);
    expect(out.yaml).toMatch(/node_modules\/dealkit\/dist\/openapi\/openapi\.yaml$/);
  });

  const tsc = (dir: string) =>
    exec(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", dir]).then(
      () => "",
      (err: { stdout: string }) => err.stdout,
    );

  /** A TypeScript project with NodeNext resolution and Node's types (no DOM), holding `files`. */
  const nodeNextProject = (name: string, files: Record<string, string>) => {
    const dir = consumerProject(staged, name, {
      ...files,
      "tsconfig.json": JSON.stringify({
        compilerOptions: {
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2022",
          lib: ["ES2022"],
          types: ["node"],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
        },
      }),
    });
    symlinkSync(join(ROOT, "node_modules/@types"), join(dir, "node_modules/@types"), "dir");
    return dir;
  };

  it("type-checks in a TypeScript project with NodeNext resolution (Node types, no DOM)", async () => {
    expect(await tsc(nodeNextProject("ts-nodenext", { "index.ts": CLIENT_TS }))).toBe("");
  }, 60_000);

  it("type-checks the TypeScript examples of the READMEs and of the reference page against the package", async () => {
    const readmes = ["README.md", "src/client/README.md"].flatMap((readme) =>
      [...readFileSync(join(ROOT, readme), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? ""),
    );
    const doc = readerDocument(await loadSpec()) as unknown as {
      paths: Record<string, { get: { "x-codeSamples": { lang: string; source: string }[] } }>;
    };
    const samples = Object.values(doc.paths).flatMap((p) =>
      p.get["x-codeSamples"].filter((s) => s.lang === "TypeScript").map((s) => s.source),
    );
    expect(samples).toHaveLength(Object.keys(doc.paths).length);
    const blocks = [...readmes, ...samples];
    expect(readmes.length).toBeGreaterThanOrEqual(3);
    const files = Object.fromEntries(blocks.map((code, i) => [`example-${i}.ts`, `${code}\nexport {};\n`]));
    expect(await tsc(nodeNextProject("ts-readme", files))).toBe("");
  }, 60_000);

  it("type-checks in a TypeScript project with Bundler resolution (DOM, no Node types)", async () => {
    const dir = consumerProject(staged, "ts-bundler", {
      "index.ts": CLIENT_TS,
      "tsconfig.json": JSON.stringify({
        compilerOptions: {
          module: "ESNext",
          moduleResolution: "Bundler",
          target: "ES2022",
          lib: ["ES2022", "DOM"],
          types: [],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
        },
      }),
    });
    expect(await tsc(dir)).toBe("");
  }, 60_000);

  it.runIf(browser)(
    "bundles for a browser and calls a server from a page",
    async () => {
      const dir = consumerProject(staged, "browser", {
        "main.js": `export { createDealClient } from "dealkit/client";\n`,
      });
      const esbuild = (await import("esbuild")) as typeof import("esbuild");
      const bundle = await esbuild.build({
        entryPoints: [join(dir, "main.js")],
        bundle: true,
        platform: "browser",
        format: "iife",
        globalName: "dealkit",
        write: false,
        logLevel: "silent",
      });
      const code = bundle.outputFiles[0]?.text ?? "";
      expect(code).not.toMatch(/require\("node:|from "node:/);
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        // Same origin as the server: the page's requests need no CORS or private-network leave.
        await page.goto(`${server.url}/api/v1/meta`);
        await page.addScriptTag({ content: code });
        const entries = await page.evaluate(async (baseUrl) => {
          const { createDealClient } = (
            globalThis as unknown as { dealkit: typeof import("../../src/client/index.ts") }
          ).dealkit;
          const { data } = await createDealClient({ baseUrl }).rank({ act: "yixiaoshi", limit: 3 });
          return data.length;
        }, server.url);
        expect(entries).toBeGreaterThan(0);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
