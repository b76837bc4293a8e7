/**
 * Child-process entry: the mock's rule layer (bench variant) over a plain Prism. The layer's
 * limiter reads the spec's 60/min/IP; autocannon sends everything from one address, so the bench
 * hands the layer a view of the spec with the limit raised (the rest of the spec is untouched).
 * `rules: false` starts plain Prism instead, for the "Prism static" column.
 */
import type { AddressInfo } from "node:net";
import { startPrism } from "../../mocks/prism.ts";
import { createRuleLayer } from "../../mocks/rule-layer.ts";
import { loadSpec } from "../../src/spec/load.ts";
import type { Spec } from "../../src/spec/spec.ts";

const { rules } = JSON.parse(process.argv[2] ?? "{}") as { rules?: boolean };
const prism = await startPrism({ host: "127.0.0.1", port: 0 });
let url = prism.url;
let closeLayer = async () => {};
if (rules) {
  const spec = await loadSpec();
  const raised = Object.create(spec, {
    rateLimit: { value: { ...spec.rateLimit, limit: 1_000_000_000 } },
  }) as Spec;
  const server = createRuleLayer({ spec: raised, upstream: prism.url });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closeLayer = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}
console.log(`READY ${JSON.stringify({ url })}`);
process.once("SIGTERM", () => {
  void closeLayer()
    .then(() => prism.close())
    .then(() => process.exit(0));
});
