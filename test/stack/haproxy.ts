/**
 * Debian's HAProxy on loopback in front of an API server, for the kit's own tests: renders one of
 * deploy/haproxy/*.cfg into a fresh temporary prefix, checks it with `haproxy -c`, runs haproxy in
 * the foreground (-db) and stops it again. HAProxy reaches the server from PROXY_ADDRESS itself
 * (`source` on its server line), the address the server trusts.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  checkConfig,
  type ForegroundProcess,
  findProgram,
  HOST,
  hostPort,
  inFreshPrefix,
  onFreePort,
  PROXY_ADDRESS,
  renderTemplates,
  runForeground,
} from "./foreground.ts";

export type HaproxyConfig = "recommended" | "preflight-limiter";

export const HAPROXY_TEMPLATES = fileURLToPath(new URL("../../deploy/haproxy/", import.meta.url));

export const haproxyBinary = (): string | undefined => findProgram("haproxy");

/** Starts haproxy with `deploy/haproxy/<config>.cfg` in front of `upstream` (http://HOST:PORT). */
export async function startHaproxy(
  config: HaproxyConfig,
  upstream: string,
  templatesDir = HAPROXY_TEMPLATES,
): Promise<ForegroundProcess> {
  const binary = haproxyBinary();
  if (!binary) throw new Error("haproxy not found on PATH nor at /usr/sbin (apt-get install -y haproxy)");
  return await inFreshPrefix("haproxy", (prefix) =>
    // The port is in the config: each attempt renders it anew.
    onFreePort(async (port) => {
      const confDir = await renderTemplates(
        templatesDir,
        prefix,
        { LISTEN: `${HOST}:${port}`, UPSTREAM: hostPort(upstream), SOURCE: PROXY_ADDRESS },
        { extensions: [".cfg"], unsafe: /[\s#'"\\]/ },
      );
      const file = join(confDir, `${config}.cfg`);
      await checkConfig(binary, ["-c", "-f", file], `${config}.cfg was rejected`);
      // -db: foreground, no daemon; SIGUSR1 is its soft stop (finish the requests in flight).
      return runForeground({
        name: "haproxy",
        binary,
        args: ["-db", "-f", file],
        prefix,
        port,
        stopSignal: "SIGUSR1",
      });
    }),
  );
}
