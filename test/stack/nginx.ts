/**
 * Debian's nginx on loopback in front of an API server, for the kit's own tests: renders one of the
 * config templates of deploy/nginx/ into a fresh temporary prefix, checks it with `nginx -t`, runs
 * nginx in the foreground as a child process and stops it again. Nothing is installed or touched
 * outside the prefix; the system's nginx service is never used.
 */
import { execFile, spawn } from "node:child_process";
import { accessSync, closeSync, constants, openSync, readFileSync, rmSync, statSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startBundledServer, type Target } from "../../conformance/runner/target.ts";
import { freePort } from "../../mocks/port.ts";

export type NginxConfig =
  | "recommended"
  | "limit-req"
  | "cache"
  | "error-pages"
  | "cache-429"
  | "limit-req-403";

export interface NginxInstance {
  /** http://127.0.0.1:PORT */
  url: string;
  /** The master process (also its process group: nginx runs in a group of its own). */
  pid: number;
  /** The instance's temporary prefix: rendered configs under conf/, logs, temp and cache dirs. */
  prefix: string;
  /** Graceful stop (SIGQUIT), SIGKILL to the whole group past a bound, then the prefix is removed. */
  close(): Promise<void>;
  /** nginx's error log (and anything it wrote on stderr); still readable after close(). */
  errorLog(): Promise<string>;
}

export interface StartOptions {
  /** Where the templates are read from (default deploy/nginx/); tests of the harness itself. */
  templatesDir?: string;
  /** Longest wait for nginx to accept connections (default 5000 ms). */
  startTimeoutMs?: number;
  /** Longest wait after SIGQUIT before SIGKILL (default 3000 ms). */
  stopTimeoutMs?: number;
  /**
   * The loopback address nginx connects to the upstream from (`proxy_bind`), so that a client on
   * this host at 127.0.0.1 is not mistaken for the proxy the server trusts.
   */
  upstreamBind?: string;
}

/** deploy/nginx/: the config templates (*.conf) and the files they include (*.inc). */
export const TEMPLATES_DIR = fileURLToPath(new URL("../../deploy/nginx/", import.meta.url));
const HOST = "127.0.0.1";
/** Attempts with a new port when another process takes the free port before nginx binds it. */
const BIND_ATTEMPTS = 3;

class BindError extends Error {}

/** The nginx binary: the first on PATH, else Debian's /usr/sbin/nginx (not on a user's PATH). */
export function nginxBinary(): string | undefined {
  const dirs = [...(process.env.PATH ?? "").split(delimiter).filter(Boolean), "/usr/sbin"];
  return dirs.map((dir) => join(dir, "nginx")).find(isExecutableFile);
}

export function nginxAvailable(): boolean {
  return nginxBinary() !== undefined;
}

/**
 * Starts nginx with `deploy/nginx/<config>.conf` in front of `upstream` (http://HOST:PORT) on a
 * free loopback port; resolves once it accepts connections.
 */
export async function startNginx(
  config: NginxConfig,
  upstream: string,
  options: StartOptions = {},
): Promise<NginxInstance> {
  const binary = nginxBinary();
  if (!binary) throw new Error("nginx not found on PATH nor at /usr/sbin/nginx (apt-get install -y nginx)");
  const upstreamAddress = hostPort(upstream);
  const prefix = await mkdtemp(join(tmpdir(), "dealkit-nginx-"));
  try {
    // Run as root, nginx switches its workers to "nobody", which must reach the temp and cache
    // directories it creates (and chowns) under the prefix: mkdtemp's 0700 would make every request
    // body or answer buffered to a file a 500. Nothing secret lives there. Not root: workers run as us.
    if (process.getuid?.() === 0) await chmod(prefix, 0o755);
    for (let attempt = 1; ; attempt++) {
      const port = await freePort(HOST);
      const file = await render(
        options.templatesDir ?? TEMPLATES_DIR,
        config,
        prefix,
        { LISTEN: `${HOST}:${port}`, UPSTREAM: upstreamAddress, PREFIX: prefix },
        options.upstreamBind,
      );
      const args = ["-p", `${prefix}/`, "-c", file, "-e", join(prefix, "error.log"), "-g", "daemon off;"];
      await testConfig(binary, args, config);
      try {
        return await run(binary, args, prefix, port, options);
      } catch (error) {
        if (!(error instanceof BindError) || attempt >= BIND_ATTEMPTS) throw error;
        // The next attempt's logs must not carry this one's "Address already in use".
        for (const name of ["error.log", "stderr.log", "nginx.pid"]) {
          await rm(join(prefix, name), { force: true });
        }
      }
    }
  } catch (error) {
    await rm(prefix, { recursive: true, force: true });
    throw error;
  }
}

/**
 * nginx connects to the server from here, and the server trusts this address alone: the suite's
 * own address (127.0.0.1 from one address, 127.0.0.10 and up spread) is never one it trusts.
 */
export const NGINX_ADDRESS = "127.0.0.2";

/** The reference server behind one config, as a client meets it: nginx's URL, the demo account, one close for both. */
export interface NginxStack extends Target {
  nginx: NginxInstance;
}

/**
 * The reference server (options as `dealkit serve` takes them) behind `config`, trusting
 * X-Forwarded-For from nginx alone (the recommended deployment); nginx reaches it from
 * NGINX_ADDRESS, an address the suite never sends from.
 */
export async function serverBehindNginx(
  config: NginxConfig,
  server: Record<string, unknown> = {},
): Promise<NginxStack> {
  const target = await startBundledServer({ trustedProxies: [NGINX_ADDRESS], ...server });
  try {
    const nginx = await startNginx(config, target.baseUrl, { upstreamBind: NGINX_ADDRESS });
    return {
      baseUrl: nginx.url,
      ...(target.account ? { account: target.account } : {}),
      nginx,
      close: async () => {
        await nginx.close();
        await target.close();
      },
    };
  } catch (error) {
    await target.close();
    throw error;
  }
}

/**
 * Instances not closed yet (master pid to prefix): if the test process exits first, each is killed
 * with its whole process group and its prefix removed (an exit handler can only do synchronous work).
 */
const live = new Map<number, string>();
let exitHook = false;

function killLeftovers(): void {
  for (const [pid, prefix] of live) {
    signal(-pid, "SIGKILL");
    rmSync(prefix, { recursive: true, force: true });
  }
}

async function run(
  binary: string,
  args: string[],
  prefix: string,
  port: number,
  options: StartOptions,
): Promise<NginxInstance> {
  const errorLogFile = join(prefix, "error.log");
  const stderrFile = join(prefix, "stderr.log");
  // stderr straight into a file: no pipe between nginx and this process, so nothing of nginx's can
  // keep the test process alive (with unref() below).
  const stderrFd = openSync(stderrFile, "a");
  // detached: nginx leads a process group of its own, so its workers can be killed with it.
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
    throw new Error(`nginx did not start: ${exit}`);
  }
  live.set(pid, prefix);
  if (!exitHook) {
    exitHook = true;
    process.once("exit", killLeftovers);
  }

  const logs = (): string => [readOr(errorLogFile), readOr(stderrFile)].filter(Boolean).join("\n");
  const stopTimeoutMs = options.stopTimeoutMs ?? 3000;
  const stop = async (): Promise<void> => {
    if (exit === undefined) {
      signal(pid, "SIGQUIT");
      if (!(await within(exited, stopTimeoutMs))) {
        // Master, workers and cache processes: the group nginx leads.
        signal(-pid, "SIGKILL");
        await within(exited, 2000);
      }
    }
    // Workers of a killed master may outlive it for a moment: wait until the port is free.
    const deadline = Date.now() + 2000;
    while ((await canConnect(port)) && Date.now() < deadline) await delay(20);
  };

  // Up when nginx wrote its pid file (after binding: a port taken by another process in between
  // would otherwise pass for nginx) AND a worker answers HTTP. The master listens and writes its
  // pid file before it forks the worker, and the kernel accepts connections for the listening
  // socket meanwhile: a test that stopped the master at that moment (SIGSTOP) had no worker.
  const startTimeoutMs = options.startTimeoutMs ?? 5000;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (exit !== undefined) {
      const log = logs();
      if (/Address already in use/.test(log)) throw new BindError(log);
      throw new Error(`nginx exited (${exit}) before it listened on ${HOST}:${port}:\n${log}`);
    }
    if (readOr(join(prefix, "nginx.pid")).trim() === String(pid) && (await answersHttp(port))) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`nginx did not listen on ${HOST}:${port} within ${startTimeoutMs} ms:\n${logs()}`);
    }
    await delay(20);
  }

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

  return {
    url: `http://${HOST}:${port}`,
    pid,
    prefix,
    close,
    errorLog: async () => finalLog ?? logs(),
  };
}

/** Renders every *.conf and *.inc template into PREFIX/conf/; returns the path of `<config>.conf`. */
async function render(
  templatesDir: string,
  config: NginxConfig,
  prefix: string,
  values: Record<string, string>,
  upstreamBind?: string,
): Promise<string> {
  for (const value of [...Object.values(values), ...(upstreamBind ? [upstreamBind] : [])]) {
    // Placeholders go into nginx's syntax unquoted.
    if (/[\s;{}'"#$]/.test(value)) {
      throw new Error(`cannot put ${JSON.stringify(value)} into an nginx config`);
    }
  }
  const names = (await readdir(templatesDir)).filter((name) => /\.(conf|inc)$/.test(name));
  if (!names.includes(`${config}.conf`)) throw new Error(`no template ${config}.conf in ${templatesDir}`);
  const confDir = join(prefix, "conf");
  await mkdir(confDir, { recursive: true });
  for (const name of names) {
    const text = (await readFile(join(templatesDir, name), "utf8")).replace(
      /\{\{([A-Z_]+)\}\}/g,
      (whole: string, key: string) => values[key] ?? whole,
    );
    const unknown = /\{\{[^}]*\}\}/.exec(text);
    if (unknown) throw new Error(`${name}: unknown placeholder ${unknown[0]}`);
    // A test instance only: the deployed config connects from the host's own address.
    const bind = upstreamBind && name === "common.inc" ? `\nproxy_bind ${upstreamBind};\n` : "";
    await writeFile(join(confDir, name), text + bind);
  }
  return join(confDir, `${config}.conf`);
}

/** `nginx -t` with the very arguments of the run: a config error throws with nginx's own words. */
function testConfig(binary: string, args: string[], config: NginxConfig): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(binary, ["-t", ...args], { timeout: 10_000 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`nginx -t rejected ${config}.conf:\n${stderr.trim() || error.message}`));
      else resolve();
    });
  });
}

function hostPort(upstream: string): string {
  const url = new URL(upstream);
  if (url.protocol !== "http:" || !url.port || (url.pathname !== "/" && url.pathname !== "")) {
    throw new Error(`upstream must be http://HOST:PORT, not ${upstream}`);
  }
  return `${url.hostname}:${url.port}`;
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function readOr(path: string): string {
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
 * purpose: nginx answers it 400 itself, so the upstream never sees (nor counts) the probe.
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
