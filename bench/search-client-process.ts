import { type ChildProcess, fork } from "node:child_process";
import { getPriority, setPriority } from "node:os";
import { join } from "node:path";
import { REPO } from "./procs.ts";
import type {
  ClientReply,
  ClientTask,
  OnceResult,
  OnceTask,
  RepeatResult,
  RepeatTask,
} from "./search-client.ts";

type Task = OnceTask | RepeatTask;

/**
 * The search scenario's timing client in its own process (search-client.ts): the bench sends it
 * a task and gets the samples back over IPC once the task is done, so nothing of the bench
 * process (its heap, its GC, its event loop) is inside a timed request.
 */
/**
 * The client's nice value, asked for when the bench may raise priorities (root, CAP_SYS_NICE). Once
 * an answer has arrived the client's main thread is runnable, and before it reads the last byte and
 * takes the time it may wait for a CPU that another process holds: on a shared 2-core machine that
 * wait was most of several of the slowest samples (e.g. 25 of 28 ms, 371 of 377 ms at 1M). A
 * higher priority for the client alone (it runs for well under a millisecond per request) takes
 * that wait out of the measurement; the server keeps its normal priority and all of its own waits.
 */
const CLIENT_NICE = -10;

export class SearchClient {
  /** The client's nice value as set (0 where raising it was not allowed). */
  nice = 0;

  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (r: unknown) => void; reject: (e: Error) => void }>();

  private constructor(private readonly child: ChildProcess) {
    child.on("message", (m: ClientReply | { ready: true }) => {
      if (!("id" in m)) return;
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.ok) w?.resolve(m.result);
      else w?.reject(new Error(`search client: ${m.error}`));
    });
    child.once("exit", (code, signal) => {
      for (const w of this.waiting.values()) w.reject(new Error(`search client exited (${code ?? signal})`));
      this.waiting.clear();
    });
  }

  /** Starts the client process and waits until it listens for tasks. */
  static start(): Promise<SearchClient> {
    const child = fork(join(REPO, "bench/search-client.ts"), [], {
      cwd: REPO,
      // Node's own type stripping, not tsx: no loader thread, no esbuild process beside the client
      // (search-client.ts and what it imports use no enums or parameter properties).
      // --single-threaded-gc: no GC helper thread of the client competes with the server for the 2 CPUs.
      // --no-incremental-marking, --no-memory-reducer: no GC step of the client scheduled as a task,
      // which would run while it waits for an answer (seen once: a client GC inside an 11 ms sample at 1M);
      // its heap is collected whole before each batch and allocates too little in one to need another.
      execArgv: ["--expose-gc", "--single-threaded-gc", "--no-incremental-marking", "--no-memory-reducer"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    return new Promise((resolve, reject) => {
      child.once("message", () => {
        const client = new SearchClient(child);
        try {
          // setpriority(PRIO_PROCESS, pid) on Linux: the main thread, the one that times.
          if (child.pid !== undefined) setPriority(child.pid, CLIENT_NICE);
          client.nice = child.pid === undefined ? 0 : getPriority(child.pid);
        } catch {
          client.nice = 0; // not allowed here: the client keeps the normal priority
        }
        resolve(client);
      });
      child.once("error", reject);
      child.once("exit", (code) =>
        reject(new Error(`search client exited with ${code} before it was ready`)),
      );
    });
  }

  /** The client process's id (its main thread's tid: the CPU waits it reads are its own). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  once(task: Omit<OnceTask, "mode">): Promise<OnceResult> {
    return this.send({ mode: "once", ...task }) as Promise<OnceResult>;
  }

  repeat(task: Omit<RepeatTask, "mode">): Promise<RepeatResult> {
    return this.send({ mode: "repeat", ...task }) as Promise<RepeatResult>;
  }

  private send(task: Task): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({ ...task, id } satisfies ClientTask);
    });
  }

  /** Disconnects; the child exits on it (killed if it has not within 5 s). */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.disconnect();
    const killer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(killer);
  }
}
