import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { resolvePeer } from "../peers/optional-peer.ts";
import { readSpecDocument } from "../spec/input.ts";
import { specFromDocument } from "../spec/load.ts";
import { REPO_ROOT, SPEC_PATH } from "../spec/paths.ts";
import { readerDocument } from "./reader.ts";

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/** Where `npm run docs` writes the page by default (built on demand, not checked in). */
export const DOCS_PATH = join(REPO_ROOT, "docs", "index.html");

export interface BuildDocsOptions {
  specPath?: string;
  /** The HTML file to write; default docs/index.html. */
  out?: string;
  title?: string;
}

function redoclyCli(): string {
  const pkg = resolvePeer("@redocly/cli", "package.json", "the API reference page");
  return join(dirname(pkg), (require(pkg) as { bin: { redocly: string } }).bin.redocly);
}

/**
 * Builds the API reference as one self-contained HTML file with Redocly `build-docs
 * --inlineBundle`: the Redoc scripts are embedded, so the page works offline and from any
 * static host. Telemetry is off; the repo's redocly.yaml applies (cwd is the repo root).
 * Returns the path written.
 */
export async function buildDocs(options: BuildDocsOptions = {}): Promise<string> {
  // Read first: a file that is not a spec is refused before anything is written.
  const spec = await specFromDocument(await readSpecDocument(options.specPath ?? SPEC_PATH, "--spec"));
  const out = resolve(options.out ?? DOCS_PATH);
  await mkdir(dirname(out), { recursive: true });
  // The page shows the reader's view of the spec: code samples, rules in words (reader.ts).
  const work = await mkdtemp(join(tmpdir(), "dealkit-reader-"));
  const reader = join(work, "openapi.json");
  await writeFile(reader, JSON.stringify(readerDocument(spec)));
  const args = [redoclyCli(), "build-docs", reader, "--inlineBundle", "--output", out];
  if (options.title) args.push("--title", options.title);
  try {
    await run(process.execPath, args, {
      cwd: REPO_ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", NO_UPDATE_NOTIFIER: "1" },
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (err) {
    const e = err as Error & { stderr?: string; stdout?: string };
    throw new Error(`redocly build-docs failed: ${e.message}\n${e.stderr ?? ""}${e.stdout ?? ""}`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return out;
}

const cache = new Map<string, { mtimeMs: number; html: Promise<string> }>();

/**
 * The reference page as an HTML string, for a server's `GET /docs`: built once per process
 * into a temporary file, and rebuilt only when the spec file changes. The first call takes a
 * few seconds (Redocly); call it at start-up to warm it. `build` is replaceable so a test can see
 * that a cache hit never builds.
 */
export async function docsHtml(
  specPath: string = SPEC_PATH,
  build: typeof buildDocs = buildDocs,
): Promise<string> {
  const { mtimeMs } = await stat(specPath);
  const hit = cache.get(specPath);
  if (hit && hit.mtimeMs === mtimeMs) return hit.html;
  const html = (async () => {
    const dir = await mkdtemp(join(tmpdir(), "dealkit-docs-"));
    try {
      return await readFile(await build({ specPath, out: join(dir, "index.html") }), "utf8");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  cache.set(specPath, { mtimeMs, html });
  html.catch(() => cache.delete(specPath));
  return html;
}
