import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { freePort, waitForPort } from "../mocks/port.ts";

/**
 * A throw-away redis-server for the benchmarks and the Redis tests: loopback only, no
 * persistence, and freezable (SIGSTOP), since a Redis that stops answering without closing its
 * connections is the failure the rate-limit store must survive.
 */
export interface RedisServer {
  url: string;
  port: number;
  pid: number;
  /** SIGSTOP: the connection stays open and nothing answers. */
  freeze(): void;
  /** SIGCONT. */
  thaw(): void;
  stop(): Promise<void>;
}

/** Whether redis-server is installed (Debian: apt-get install -y redis-server). */
export function redisAvailable(): boolean {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts redis-server on `port` (default: a free one). An exit hook wakes and kills it should the
 * process die with it frozen; stop() wakes it first, since a stopped process keeps SIGTERM pending.
 */
export async function startRedis(options: { port?: number } = {}): Promise<RedisServer> {
  const port = options.port ?? (await freePort());
  const child: ChildProcess = spawn(
    "redis-server",
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--protected-mode",
      "yes",
    ],
    { stdio: "ignore" },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const signal = (s: NodeJS.Signals) => {
    if (alive()) child.kill(s);
  };
  const emergency = () => {
    signal("SIGCONT");
    signal("SIGKILL");
  };
  process.on("exit", emergency);
  try {
    await waitForPort("127.0.0.1", port, 10_000, () =>
      alive() ? undefined : `redis-server exited with ${child.exitCode}`,
    );
  } catch (err) {
    emergency();
    process.off("exit", emergency);
    throw err;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: child.pid as number,
    freeze: () => signal("SIGSTOP"),
    thaw: () => signal("SIGCONT"),
    stop: async () => {
      signal("SIGCONT");
      signal("SIGTERM");
      const killer = setTimeout(() => signal("SIGKILL"), 3000);
      await exited;
      clearTimeout(killer);
      process.off("exit", emergency);
    },
  };
}
