import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { freePort, waitForPort } from "../mocks/port.ts";

export interface RedisServer {
  url: string;
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

/** A throw-away redis-server on a free loopback port, without persistence. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
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
  await waitForPort("127.0.0.1", port, 10_000, () =>
    child.exitCode !== null ? `redis-server exited with ${child.exitCode}` : undefined,
  );
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
