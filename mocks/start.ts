import type { AddressInfo } from "node:net";
import { ClientJudge } from "../conformance/clients/judge.ts";
import { attachClientJudge } from "../conformance/clients/server-hook.ts";
import type { ClientsReport } from "../conformance/clients/types.ts";
import { loadSpec } from "../src/spec/load.ts";
import { DEFAULT_DEMO_ACCOUNT, type DemoAccount } from "./auth.ts";
import { dynamicFixtures } from "./fixtures/dynamic.ts";
import { type PrismProcess, startPrism } from "./prism.ts";
import { createRuleLayer } from "./rule-layer.ts";
import { mockVariations } from "./variations.ts";

export interface MockOptions {
  specPath?: string;
  host?: string;
  /** The port users call; 0 picks a free one. */
  port?: number;
  dynamic?: boolean;
  seed?: string;
  /** false: users talk to Prism directly, without the rule layer. */
  rules?: boolean;
  account?: DemoAccount;
  now?: () => number;
  /** `--variations SEED`: answers vary as v1 allows (variations.ts); needs the rule layer. */
  variations?: string;
}

export interface RunningMock {
  /** Where clients connect. */
  url: string;
  /** Prism itself (the same as `url` without the rule layer). */
  prismUrl: string;
  /** Settles if Prism exits before close(): the mock is then of no use. */
  prismExited: Promise<number | null>;
  /** The client judge's current report (conformance/clients/); absent without the rule layer. */
  clients?: () => ClientsReport;
  close(): Promise<void>;
}

/**
 * Starts the mock: Prism on the spec and, unless `rules` is false, the rule layer in front of
 * it. Prism then listens on a private free loopback port and only the layer faces the user.
 */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const host = options.host ?? "127.0.0.1";
  const rules = options.rules ?? true;
  if (!rules && options.variations !== undefined) throw new Error("variations need the rule layer");
  // Checked before Prism starts: a file that is not a spec is refused (src/spec/input.ts), not served.
  const spec = await loadSpec(options.specPath);
  const prism: PrismProcess = await startPrism({
    specPath: options.specPath,
    host: rules ? "127.0.0.1" : host,
    port: rules ? 0 : options.port,
    // Behind the layer Prism only negotiates and serves named examples: --dynamic data comes from
    // the fixture generator (fixtures/dynamic.ts), so Prism's faker would only burn CPU. Without
    // the layer, --dynamic is Prism's own -d.
    dynamic: rules ? false : options.dynamic,
    seed: rules ? undefined : options.seed,
  });
  if (!rules) return { url: prism.url, prismUrl: prism.url, prismExited: prism.exited, close: prism.close };

  try {
    const server = createRuleLayer({
      spec,
      upstream: prism.url,
      fixtures: options.dynamic ? dynamicFixtures(spec, options.seed, options.now ?? Date.now) : undefined,
      account: options.account,
      now: options.now,
      variations:
        options.variations === undefined
          ? undefined
          : mockVariations({ spec, seed: options.variations, now: options.now }),
    });
    // Every exchange judged as a client's too (x-client-rules); the report is served at /__dealkit/clients.
    const account = options.account ?? DEFAULT_DEMO_ACCOUNT;
    const clients = new ClientJudge(spec, { accounts: [{ uid: String(account.uid), key: account.apiKey }] });
    attachClientJudge(server, clients, options.now);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const close = async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await prism.close();
    };
    const urlHost = host.includes(":") ? `[${host}]` : host;
    const url = `http://${urlHost}:${port}`;
    return { url, prismUrl: prism.url, prismExited: prism.exited, clients: () => clients.report(), close };
  } catch (err) {
    await prism.close();
    throw err;
  }
}
