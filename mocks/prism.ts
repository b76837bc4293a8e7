import { type ChildProcess, spawn } from "node:child_process";
import { resolvePeer } from "../src/peers/optional-peer.ts";
import { SPEC_PATH } from "../src/spec/paths.ts";
import { freePort, waitForPort } from "./port.ts";

export interface PrismOptions {
  specPath?: string;
  host?: string;
  /** 0 or absent: a free port. */
  port?: number;
  /** Prism's -d: bodies generated from the schemas instead of the documented examples. */
  dynamic?: boolean;
  /** Seed for -d, so dynamic bodies repeat between runs. */
  seed?: string;
  startTimeoutMs?: number;
}

export interface PrismProcess {
  url: string;
  child: ChildProcess;
  /** Settles when Prism exits, for whatever reason, with its exit code (null on a signal). */
  exited: Promise<number | null>;
  close(): Promise<void>;
}

/** The prism-cli entry point of the installed package (no reliance on PATH or npx). */
function prismEntry(): string {
  return resolvePeer("@stoplight/prism-cli", "dist/index.js", "the mock");
}

/**
 * Starts `prism mock` as a child process and resolves once it accepts connections. Its log is
 * kept in memory and shown only when it fails to start, so the mock's own output stays readable.
 */
export async function startPrism(options: PrismOptions = {}): Promise<PrismProcess> {
  const host = options.host ?? "127.0.0.1";
  const port = options.port || (await freePort(host));
  const args = [prismEntry(), "mock", options.specPath ?? SPEC_PATH, "-h", host, "-p", String(port)];
  args.push("-v", "warn");
  if (options.dynamic) args.push("-d");
  if (options.seed !== undefined) args.push("--seed", options.seed);
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  try {
    await waitForPort(host, port, options.startTimeoutMs ?? 30_000, () =>
      child.exitCode !== null ? `prism exited with code ${child.exitCode}:\n${log}` : undefined,
    );
  } catch (err) {
    await close();
    throw err;
  }
  return { url: `http://${host}:${port}`, child, exited, close };
}
