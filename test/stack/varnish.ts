/**
 * Debian's Varnish on loopback in front of an API server, for the kit's own tests: renders one of
 * deploy/varnish/*.vcl into a fresh temporary prefix, compiles it with `varnishd -C`, runs varnishd
 * in the foreground (-F, no jail, its work dir under the prefix) and stops it again. Varnish reaches
 * the server through a relay leaving from PROXY_ADDRESS, the address the server trusts.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  checkConfig,
  type ForegroundProcess,
  findProgram,
  HOST,
  inFreshPrefix,
  onFreePort,
  renderTemplates,
  runForeground,
} from "./foreground.ts";
import { behindRelay } from "./relay.ts";

export type VarnishConfig = "recommended" | "store-429";

export const VARNISH_TEMPLATES = fileURLToPath(new URL("../../deploy/varnish/", import.meta.url));

export const varnishBinary = (): string | undefined => findProgram("varnishd");

/**
 * The runtime parameters deploy/varnish/recommended.vcl asks for (x-request-gate: heads up to and a
 * little over the API's 16 KB cap reach the API); [] runs Varnish's defaults.
 */
export const RECOMMENDED_PARAMS = ["-p", "http_req_hdr_len=32k", "-p", "http_req_size=64k"];

/** Starts varnishd with `deploy/varnish/<config>.vcl` in front of `upstream` (http://HOST:PORT). */
export async function startVarnish(
  config: VarnishConfig,
  upstream: string,
  templatesDir = VARNISH_TEMPLATES,
  params: string[] = RECOMMENDED_PARAMS,
): Promise<ForegroundProcess> {
  const binary = varnishBinary();
  if (!binary) throw new Error("varnishd not found on PATH nor at /usr/sbin (apt-get install -y varnish)");
  return await behindRelay(upstream, (relayHost, relayPort) =>
    inFreshPrefix("varnish", async (prefix) => {
      const confDir = await renderTemplates(
        templatesDir,
        prefix,
        { UPSTREAM_HOST: relayHost, UPSTREAM_PORT: relayPort },
        { extensions: [".vcl"], unsafe: /[\s"{};]/ },
      );
      const vcl = join(confDir, `${config}.vcl`);
      // varnishd's work dir (-n): its shared memory log and compiled VCL, under the prefix.
      const workDir = join(prefix, "work");
      await checkConfig(binary, ["-C", "-n", workDir, "-f", vcl], `${config}.vcl was rejected`);
      return onFreePort((port) =>
        runForeground({
          name: "varnishd",
          binary,
          // -F foreground, -j none: no jail (no varnish user needed), -s: a small in-memory store.
          args: [
            "-F",
            "-j",
            "none",
            "-n",
            workDir,
            "-a",
            `${HOST}:${port}`,
            "-f",
            vcl,
            "-s",
            "malloc,64m",
            ...params,
          ],
          prefix,
          port,
        }),
      );
    }),
  );
}
