import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Every child started by the bench, so that a failure or Ctrl-C never leaves one behind. */
const running = new Set<Child>();

export interface Child {
  process: ChildProcess;
  /** The JSON the child printed after READY (e.g. its URL). */
  ready: Record<string, unknown>;
  /** SIGTERM, then SIGKILL after `graceMs` (a server closing a large SQLite file checkpoints its WAL first). */
  stop(graceMs?: number): Promise<void>;
}

export const REPO = fileURLToPath(new URL("..", import.meta.url));

/**
 * Starts `node --import tsx <entry> <json>` and resolves with what it prints on its `READY {json}`
 * line. Each server runs in its own process: the load generator must never share an event loop
 * with what it measures.
 */
export function startChild(
  entry: string,
  options: unknown,
  { timeoutMs = 600_000, env = {} as Record<string, string> } = {},
): Promise<Child> {
  const child = spawn(process.execPath, ["--import", "tsx", entry, JSON.stringify(options)], {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise<Child>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(
      () => fail(new Error(`${entry} did not start within ${timeoutMs} ms\n${log}`)),
      timeoutMs,
    );
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(err);
    };
    child.stderr?.on("data", (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    let buffered = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const m = /^READY (.*)$/m.exec(buffered);
      if (!m || settled) return;
      settled = true;
      clearTimeout(timer);
      const handle: Child = {
        process: child,
        ready: JSON.parse(m[1] as string) as Record<string, unknown>,
        stop: async (graceMs = 5000) => {
          running.delete(handle);
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill("SIGTERM");
          const killer = setTimeout(() => child.kill("SIGKILL"), graceMs);
          await exited;
          clearTimeout(killer);
        },
      };
      running.add(handle);
      buffered = "";
      resolve(handle);
    });
    child.once("exit", (code) => fail(new Error(`${entry} exited with ${code} before it was ready\n${log}`)));
  });
}

/** Stops whatever is still running (used on failure and on SIGINT). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((c) => c.stop()));
}

/** Resolves with the child's READY payload field `url`. */
export function urlOf(child: Child): string {
  return child.ready.url as string;
}
