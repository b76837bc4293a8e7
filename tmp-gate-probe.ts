import { runConformance } from "./conformance/runner/run.ts";
import { startBundledServer } from "./conformance/runner/target.ts";
import { PROXY_ADDRESS, closeAllForeground } from "./test/stack/foreground.ts";
import { startHaproxy } from "./test/stack/haproxy.ts";
import { startHttpd } from "./test/stack/httpd.ts";
import { startNginx } from "./test/stack/nginx.ts";
import { startVarnish } from "./test/stack/varnish.ts";

const which = process.argv[2] ?? "httpd";
const config = process.argv[3] ?? "recommended";
const target = await startBundledServer({ trustedProxies: [PROXY_ADDRESS] });
const starters: Record<string, (u: string) => Promise<{ url: string; close(): Promise<void> }>> = {
  httpd: (u) => startHttpd(config as never, u),
  haproxy: (u) => startHaproxy(config as never, u),
  varnish: (u) => startVarnish(config as never, u),
  nginx: (u) => startNginx(config as never, u),
};
const proxy = await starters[which]!(target.baseUrl);
const t = Date.now();
const report = await runConformance({ baseUrl: proxy.url, only: ["request-gate"], seed: 11 });
const c = report.checks.find((x) => x.name === "request-gate");
console.log(which, config, report.verdict, c?.status, `${Date.now() - t} ms`, c?.reason ?? "");
for (const v of c?.violations ?? []) console.log(" -", v.code, "|", v.title);
console.log("causes:", JSON.stringify(report.causes.map((x) => [x.id, x.title, x.evidence])));
await proxy.close();
await target.close();
await closeAllForeground();
process.exit(0);
