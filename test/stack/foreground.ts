/**
 * What every proxy harness of test/stack/ shares: finding a Debian program (PATH, then /usr/sbin),
 * a fresh temporary prefix, config templates rendered into it, a config check with the program's
 * own words, and the program run in the foreground on a free loopback port as a process group of
 * its own: up once it answers HTTP, stopped by its pid within a bound, its prefix removed after.
 * Nothing is installed or touched outside the prefix; no system service is used.
 */
import { execFile, spawn } from "node:child_process";
import { accessSync, closeSync, constants, openSync, readFileSync, rmSync, statSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { freePort } from "../../mocks/port.ts";

export const HOST = "127.0.0.1";

/**
 * The loopback address every proxy reaches the API server from, and the only one the server is
 * told to trust for X-Forwarded-For: the suite's own addresses (127.0.0.1 from one address,
 * 127.0.0.10 and up spread) are never taken for the proxy.
 */
export const PROXY_ADDRESS = "127.0.0.2";

/** Attempts with a new port when another process takes the free port before the program binds it. */
const BIND_ATTEMPTS = 3;

/** The program failed to bind its port ("Address already in use"): worth another port. */
export class BindError extends Error {}

/** A Debian program: the first on PATH, else /usr/sbin (not on a user's PATH). */
export function findProgram(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? "").split(delimiter).filter(Boolean), "/usr/sbin"];
  return dirs.map((dir) => join(dir, name)).find(isExecutableFile);
}

/** `host:port` of an upstream given as http://HOST:PORT. */
export function hostPort(upstream: string): string {
  const url = new URL(upstream);
  if (url.protocol !== "http:" || !url.port || (url.pathname !== "/" && url.pathname !== "")) {
    throw new Error(`upstream must be http://HOST:PORT, not ${upstream}`);
  }
  return `${url.hostname}:${url.port}`;
}

/**
 * A fresh temporary directory for one instance. Run as root, the proxies hand their work to an
 * unprivileged user (httpd's workers, nginx's) that must reach what they create under it:
 * mkdtemp's 0700 would lock them out. Nothing secret lives there.
 */
async function makePrefix(name: string): Promise<string> {
  const prefix = await mkdtemp(join(tmpdir(), `dealkit-${name}-`));
  if (process.getuid?.() === 0) await chmod(prefix, 0o755);
  return prefix;
}

/** Calls `start` with a fresh prefix (makePrefix), removed again when `start` throws. */
export async function inFreshPrefix<T>(name: string, start: (prefix: string) => Promise<T>): Promise<T> {
  const prefix = await makePrefix(name);
  try {
    return await start(prefix);
  } catch (error) {
    await rm(prefix, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Renders every template of `templatesDir` whose name ends in one of `extensions` into
 * PREFIX/conf/, each {{KEY}} replaced by `values[KEY]`; an unknown placeholder, or a value with a
 * character the config syntax would read as its own (`unsafe`), throws. Returns PREFIX/conf/.
 */
export async function renderTemplates(
  templatesDir: string,
  prefix: string,
  values: Record<string, string>,
  { extensions, unsafe }: { extensions: string[]; unsafe: RegExp },
): Promise<string> {
  for (const value of Object.values(values)) {
    if (unsafe.test(value)) throw new Error(`cannot put ${JSON.stringify(value)} into a config`);
  }
  const names = (await readdir(templatesDir)).filter((name) => extensions.some((ext) => name.endsWith(ext)));
  const confDir = join(prefix, "conf");
  await mkdir(confDir, { recursive: true });
  for (const name of names) {
    const text = (await readFile(join(templatesDir, name), "utf8")).replace(
      /\{\{([A-Z_]+)\}\}/g,
      (whole: string, key: string) => values[key] ?? whole,
    );
    const unknown = /\{\{[^}]*\}\}/.exec(text);
    if (unknown) throw new Error(`${name}: unknown placeholder ${unknown[0]}`);
    await writeFile(join(confDir, name), text);
  }
  return confDir;
}

/**
 * Runs the program's own config check (`varnishd -C`, `haproxy -c`, `apache2 -t`, `nginx -t`): a
 * rejection throws `rejected` ("recommended.vcl was rejected") followed by the program's words.
 */
export function checkConfig(
  binary: string,
  args: string[],
  rejected: string,
  { timeoutMs = 20_000 }: { timeoutMs?: number } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(binary, args, { timeout: timeoutMs, maxBuffer: 8 << 20 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`${rejected}:\n${stderr.trim() || error.message}`));
      else resolve();
    });
  });
}

/**
 * Calls `start` with a free loopback port, again with a new one (up to 3 times) when it throws a
 * BindError: another process took the port between freePort and the program's bind.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort(HOST));
    } catch (error) {
      if (!(error instanceof BindError) || attempt >= BIND_ATTEMPTS) throw error;
    }
  }
}

export interface ForegroundProgram {
  /** For messages ("varnishd"). */
  name: string;
  binary: string;
  args: string[];
  prefix: string;
  /** The loopback port it was told to listen on. */
  port: number;
  /** Log files under the prefix it writes besides stderr, read when it fails and by logs(). */
  logFiles?: string[];
  /** The graceful stop (default SIGTERM); past stopTimeoutMs the whole group gets SIGKILL. */
  stopSignal?: NodeJS.Signals;
  /**
   * Whether it is up besides answering HTTP, e.g. its pid file written after it bound the port:
   * another process that took the port in between would otherwise pass for it.
   */
  ready?: (pid: number) => boolean;
  /** Longest wait for it to answer HTTP (default 10000 ms: varnishd compiles its VCL first). */
  startTimeoutMs?: number;
  /** Longest wait after the graceful stop before SIGKILL (default 3000 ms). */
  stopTimeoutMs?: number;
}

export interface ForegroundProcess {
  /** http://127.0.0.1:PORT */
  url: string;
  /** The program's first process, also its process group (it was started detached). */
  pid: number;
  prefix: string;
  /** Graceful stop, SIGKILL to the whole group past the bound, then the prefix is removed. */
  close(): Promise<void>;
  /** Its stderr and log files; still readable after close(). */
  logs(): Promise<string>;
}

/**
 * Instances not closed yet, by pid. If the test process exits first, each is killed with its whole
 * process group and its prefix removed (an exit handler can only do synchronous work).
 */
const live = new Map<number, { prefix: string; close(): Promise<void> }>();
let exitHook = false;

function killLeftovers(): void {
  for (const [pid, { prefix }] of live) {
    signal(-pid, "SIGKILL");
    rmSync(prefix, { recursive: true, force: true });
  }
}

/**
 * Closes every instance still running: a test file's afterAll. A test past its timeout leaves its
 * run (and its proxy) going, and vitest may end the worker with a signal, where no exit handler runs.
 */
export async function closeAllForeground(): Promise<void> {
  await Promise.all([...live.values()].map((instance) => instance.close()));
}

/**
 * Starts the program and resolves once it answers HTTP on its port. A program that exits first
 * throws its logs (a BindError when its port was taken); one that never answers is stopped and
 * throws. The prefix is left to the caller until close().
 */
export async function runForeground(program: ForegroundProgram): Promise<ForegroundProcess> {
  const { name, binary, args, prefix, port } = program;
  const stderrFile = join(prefix, `${name}.stderr.log`);
  // stderr straight into a file: no pipe between the program and this process, so nothing of the
  // program's can keep the test process alive (with unref() below).
  const stderrFd = openSync(stderrFile, "w");
  // detached: the program leads a process group of its own, so its children can be killed with it.
  const child = spawn(binary, args, { detached: true, stdio: ["ignore", "ignore", stderrFd] });
  closeSync(stderrFd);
  child.unref();
  let exit: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once("exit", (code, killedBy) => {
      exit = killedBy ? `signal ${killedBy}` : `code ${code}`;
      if (child.pid !== undefined) live.delete(child.pid);
      resolve();
    });
    child.once("error", (error) => {
      exit = `spawn error: ${error.message}`;
      resolve();
    });
  });
  const pid = child.pid;
  if (pid === undefined) {
    await exited;
    throw new Error(`${name} did not start: ${exit}`);
  }
  if (!exitHook) {
    exitHook = true;
    process.once("exit", killLeftovers);
  }

  const logs = (): string => [stderrFile, ...(program.logFiles ?? [])].map(readOr).filter(Boolean).join("\n");
  const stopTimeoutMs = program.stopTimeoutMs ?? 3000;
  const stop = async (): Promise<void> => {
    if (exit === undefined) {
      signal(pid, program.stopSignal ?? "SIGTERM");
      if (!(await within(exited, stopTimeoutMs))) {
        signal(-pid, "SIGKILL");
        await within(exited, 2000);
      }
    }
    // The leader gone, its children may still hold the port a moment: the group goes too.
    signal(-pid, "SIGKILL");
    const deadline = Date.now() + 2000;
    while ((await canConnect(port)) && Date.now() < deadline) await delay(20);
  };

  let finalLog: string | undefined;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await stop();
      finalLog = logs();
      await rm(prefix, { recursive: true, force: true });
    })();
    return closing;
  };
  // Registered before it is up: a test process ending during the start kills it too.
  if (exit === undefined) live.set(pid, { prefix, close });

  const startTimeoutMs = program.startTimeoutMs ?? 10_000;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (exit !== undefined) {
      const log = logs();
      if (/Address already in use/i.test(log)) throw new BindError(log);
      throw new Error(`${name} exited (${exit}) before it listened on ${HOST}:${port}:\n${log}`);
    }
    if ((program.ready?.(pid) ?? true) && (await answersHttp(port))) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} did not answer on ${HOST}:${port} within ${startTimeoutMs} ms:\n${logs()}`);
    }
    await delay(50);
  }

  return { url: `http://${HOST}:${port}`, pid, prefix, close, logs: async () => finalLog ?? logs() };
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The file's text, or "" when it cannot be read (not written yet). */
export function readOr(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** true when `promise` settles within `ms`. */
function within(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Whether something on the port answers HTTP within a second. The request line is malformed on
 * purpose: each proxy answers it 400 itself, so the upstream never sees (nor counts) the probe.
 */
function answersHttp(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: HOST, port });
    const done = (answered: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answered);
    };
    const timer = setTimeout(() => done(false), 1000);
    socket.once("connect", () => socket.write("READY?\r\n\r\n"));
    socket.once("data", (chunk: Buffer) => done(chunk.subarray(0, 5).toString("latin1") === "HTTP/"));
    socket.once("error", () => done(false));
    socket.once("close", () => done(false));
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: HOST, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
