/**
 * Debian's nginx on loopback in front of an API server, for the kit's own tests: renders one of the
 * config templates of deploy/nginx/ into a fresh temporary prefix, checks it with `nginx -t`, runs
 * nginx in the foreground as a child process and stops it again (foreground.ts does the running).
 * Nothing is installed or touched outside the prefix; the system's nginx service is never used.
 */
import { existsSync } from "node:fs";
import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startBundledServer, type Target } from "../../conformance/runner/target.ts";
import {
  checkConfig,
  findProgram,
  HOST,
  hostPort,
  inFreshPrefix,
  onFreePort,
  PROXY_ADDRESS,
  readOr,
  renderTemplates,
  runForeground,
} from "./foreground.ts";

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

/** Characters nginx's syntax would read as its own: placeholders go in unquoted. */
const UNSAFE = /[\s;{}'"#$]/;

export const nginxBinary = (): string | undefined => findProgram("nginx");

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
  const { templatesDir = TEMPLATES_DIR, upstreamBind } = options;
  if (upstreamBind && UNSAFE.test(upstreamBind)) {
    throw new Error(`cannot put ${JSON.stringify(upstreamBind)} into an nginx config`);
  }
  if (!existsSync(join(templatesDir, `${config}.conf`))) {
    throw new Error(`no template ${config}.conf in ${templatesDir}`);
  }
  // The port is in the config, and the logs and pid file in the prefix: each attempt gets both
  // anew, so that its logs do not carry the last one's "Address already in use".
  const nginx = await onFreePort((port) =>
    inFreshPrefix("nginx", async (prefix) => {
      const confDir = await renderTemplates(
        templatesDir,
        prefix,
        { LISTEN: `${HOST}:${port}`, UPSTREAM: upstreamAddress, PREFIX: prefix },
        { extensions: [".conf", ".inc"], unsafe: UNSAFE },
      );
      // A test instance only: the deployed config connects from the host's own address.
      const commonInc = join(confDir, "common.inc");
      if (upstreamBind && existsSync(commonInc)) {
        await appendFile(commonInc, `\nproxy_bind ${upstreamBind};\n`);
      }
      const file = join(confDir, `${config}.conf`);
      const errorLog = join(prefix, "error.log");
      const args = ["-p", `${prefix}/`, "-c", file, "-e", errorLog, "-g", "daemon off;"];
      // `nginx -t` with the very arguments of the run.
      await checkConfig(binary, ["-t", ...args], `nginx -t rejected ${config}.conf`, { timeoutMs: 10_000 });
      return runForeground({
        name: "nginx",
        binary,
        args,
        prefix,
        port,
        logFiles: [errorLog],
        // Master, workers and cache processes stop gracefully on SIGQUIT.
        stopSignal: "SIGQUIT",
        // Up once nginx wrote its pid file (after binding: a port taken by another process in
        // between would otherwise pass for nginx) AND a worker answers HTTP. The master listens and
        // writes its pid file before it forks the worker, and the kernel accepts connections for
        // the listening socket meanwhile: a test that stopped the master at that moment (SIGSTOP)
        // had no worker.
        ready: (pid) => readOr(join(prefix, "nginx.pid")).trim() === String(pid),
        startTimeoutMs: options.startTimeoutMs ?? 5000,
        stopTimeoutMs: options.stopTimeoutMs,
      });
    }),
  );
  const { logs, ...instance } = nginx;
  return { ...instance, errorLog: logs };
}

/**
 * nginx connects to the server from here, and the server trusts this address alone: the suite's
 * own address (127.0.0.1 from one address, 127.0.0.10 and up spread) is never one it trusts.
 */
export const NGINX_ADDRESS = PROXY_ADDRESS;

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
