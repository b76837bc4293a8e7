/**
 * Debian's Apache httpd on loopback in front of an API server, for the kit's own tests: renders one
 * of deploy/httpd/*.conf (with the *.inc files they include) into a fresh temporary prefix, checks
 * it with `apache2 -t`, runs it in the foreground (-DFOREGROUND, its ServerRoot the prefix) and
 * stops it again. httpd reaches the server through a relay leaving from PROXY_ADDRESS, the address
 * the server trusts.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  checkConfig,
  type ForegroundProcess,
  findProgram,
  HOST,
  inFreshPrefix,
  onFreePort,
  readOr,
  renderTemplates,
  runForeground,
} from "./foreground.ts";
import { behindRelay } from "./relay.ts";

export type HttpdConfig = "recommended" | "evasive" | "cache";

export const HTTPD_TEMPLATES = fileURLToPath(new URL("../../deploy/httpd/", import.meta.url));

/** Debian names the binary apache2, other systems httpd. */
export const httpdBinary = (): string | undefined => findProgram("apache2") ?? findProgram("httpd");

/** Where the shared modules are: Debian's, then the upstream build's default. */
const MODULE_DIRS = ["/usr/lib/apache2/modules", "/usr/lib64/httpd/modules", "/usr/lib/httpd/modules"];

/** Starts httpd with `deploy/httpd/<config>.conf` in front of `upstream` (http://HOST:PORT). */
export async function startHttpd(
  config: HttpdConfig,
  upstream: string,
  templatesDir = HTTPD_TEMPLATES,
): Promise<ForegroundProcess> {
  const binary = httpdBinary();
  if (!binary)
    throw new Error("apache2 (httpd) not found on PATH nor at /usr/sbin (apt-get install -y apache2)");
  const modules = MODULE_DIRS.find((dir) => existsSync(join(dir, "mod_proxy.so")));
  if (!modules) throw new Error(`no mod_proxy.so in ${MODULE_DIRS.join(", ")}`);
  return await behindRelay(upstream, (relayHost, relayPort) =>
    inFreshPrefix("httpd", (prefix) =>
      // The port is in the config: each attempt renders it anew.
      onFreePort(async (port) => {
        const confDir = await renderTemplates(
          templatesDir,
          prefix,
          {
            LISTEN: `${HOST}:${port}`,
            UPSTREAM: `${relayHost}:${relayPort}`,
            PREFIX: prefix,
            MODULES: modules,
          },
          { extensions: [".conf", ".inc"], unsafe: /[\s"'#\\]/ },
        );
        // cache.conf's CacheRoot: mod_cache_disk makes the levels below it, not the root. Run as
        // root, httpd's workers are nobody, who must write there.
        await mkdir(join(prefix, "cache"), { recursive: true, mode: 0o777 });
        await chmod(join(prefix, "cache"), 0o777);
        const args = ["-d", prefix, "-f", join(confDir, `${config}.conf`)];
        await checkConfig(binary, ["-t", ...args], `${config}.conf was rejected`);
        return runForeground({
          name: "httpd",
          binary,
          args: ["-DFOREGROUND", ...args],
          prefix,
          port,
          logFiles: [join(prefix, "error.log")],
          // httpd (-DFOREGROUND: the process started) writes its pid file once it has bound its port.
          ready: (pid) => readOr(join(prefix, "httpd.pid")).trim() === String(pid),
          // SIGTERM: stop now (SIGWINCH would wait for the requests in flight).
          stopSignal: "SIGTERM",
        });
      }),
    ),
  );
}
