/**
 * The bundled target: the reference server started in process on an ephemeral loopback port
 * with a throw-away database, and its demo account for the key-protected streams.
 */
import type { Account } from "../arbitraries/requests.ts";

export interface Target {
  baseUrl: string;
  account?: Account;
  close(): Promise<void>;
}

export async function startBundledServer(options: Record<string, unknown> = {}): Promise<Target> {
  const { startServer } = await import("../../reference-server/index.ts");
  const server = await startServer({ port: 0, host: "127.0.0.1", dbPath: ":memory:", ...options });
  return {
    baseUrl: server.url,
    ...(server.demo ? { account: { uid: String(server.demo.uid), key: server.demo.key } } : {}),
    close: () => server.close(),
  };
}
