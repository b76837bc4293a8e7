/** A `dealkit proxy` child process of a bench scenario: waiting for its address, stopping it. */
import type { ChildProcess } from "node:child_process";

/** Resolves once the spawned proxy prints the address it listens on; keeps its last 8 KB of output for errors. */
export function proxyListening(child: ChildProcess): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`dealkit proxy did not start:\n${out}`)), 60_000);
    const read = (chunk: Buffer) => {
      out = (out + chunk.toString()).slice(-8000);
      const m = /dealkit proxy: (http:\/\/\S+) →/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        child.stdout?.off("data", read);
        resolve({ url: m[1], child });
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", (c: Buffer) => {
      out = (out + c.toString()).slice(-8000);
    });
    child.once("exit", (code) => reject(new Error(`dealkit proxy exited with ${code}:\n${out}`)));
  });
}

/** SIGINT, as Ctrl-C: the proxy finishes, writes its report and exits (SIGKILL after 30 s). */
export function stopProxy(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.once("exit", () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill("SIGINT");
  });
}
