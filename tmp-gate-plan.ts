import { runConformance } from "./conformance/runner/run.ts";
import { startBundledServer } from "./conformance/runner/target.ts";
const target = await startBundledServer();
const r = await runConformance({ baseUrl: target.baseUrl, seed: 2, addresses: 1, rate: { limit: 60, windowSeconds: 10 }, plan: true, ...(target.account ? { account: target.account } : {}) } as never);
const p = (r as any).plan;
console.log(Object.keys(r as any).join(","));
console.log(JSON.stringify({ steps: p?.steps?.length, groups: p?.groups?.length, exploration: p?.exploration, requests: (r as any).requests }));
await target.close();
process.exit(0);
