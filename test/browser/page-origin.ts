/**
 * The browser page's own origin: a static server on its own loopback port serving one HTML page
 * and the typed client, bundled for the browser by esbuild as a user's build would. The API
 * (another port) is therefore another origin, and every call the page makes is a CORS request.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

export interface PageOrigin {
  /** http://127.0.0.1:PORT/ : the page. */
  url: string;
  /** Bytes of the bundled client (minified), for the report. */
  bundleBytes: number;
  close(): Promise<void>;
}

const CLIENT_ENTRY = fileURLToPath(new URL("../../src/client/index.ts", import.meta.url));

/** The client as a browser script: an IIFE defining the global `dealkit` (dealkit/client's exports). */
export async function bundleClient(): Promise<string> {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [CLIENT_ENTRY],
    bundle: true,
    minify: true,
    platform: "browser",
    format: "iife",
    globalName: "dealkit",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]?.text;
  if (!code) throw new Error("esbuild wrote no bundle for the client");
  return code;
}

// An empty icon: the browser's own favicon request would otherwise log a 404 console error.
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>dealkit client</title>
<script src="/client.js"></script></head><body>dealkit client page</body></html>`;

export async function startPageOrigin(): Promise<PageOrigin> {
  const bundle = await bundleClient();
  const server = createServer((req, res) => {
    if (req.url === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(PAGE);
    } else if (req.url === "/client.js") {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" });
      res.end(bundle);
    } else {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    bundleBytes: Buffer.byteLength(bundle),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
