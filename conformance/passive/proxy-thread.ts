/**
 * The forwarding thread of `dealkit proxy` (threaded-proxy.ts): runs proxyCommand, says where it
 * listens, and on "stop" finishes it and hands back the exit code and the report.
 */
import { parentPort, workerData } from "node:worker_threads";
import { LedgerError } from "../ledger/file.ts";
import { proxyCommand } from "./main.ts";
import { OptionError } from "./options.ts";
import { type ProxyArgs, proxyCliOf } from "./proxy-args.ts";
import type { ForwarderAnswer } from "./threaded-proxy.ts";

const port = parentPort;
if (!port) throw new Error("proxy-thread.ts runs as a worker thread");
const answer = (a: ForwarderAnswer) => port.postMessage(a);

try {
  const run = await proxyCommand(proxyCliOf(workerData as ProxyArgs));
  // "clients": the clients report written on demand; any other message stops the proxy.
  const onMessage = async (message: unknown) => {
    if (message === "clients") {
      await run.writeClients?.();
      return;
    }
    port.off("message", onMessage);
    const { code, report } = await run.stop();
    answer({ kind: "stopped", code, report });
  };
  port.on("message", onMessage);
  answer({ kind: "listening", url: run.url });
} catch (err) {
  const e = err as NodeJS.ErrnoException;
  answer({
    kind: "failed",
    // A wrong option or a ledger file of another format: the command's usage error (exit 2).
    option: err instanceof OptionError || err instanceof LedgerError,
    message: e.message,
    ...(e.code ? { code: e.code } : {}),
    ...(e.syscall ? { syscall: e.syscall } : {}),
    ...(e.path ? { path: e.path } : {}),
  });
}
