/**
 * Hostile targets: what a field run may meet that no spec describes. Some are whole servers
 * (not this API at all, a limiter that refuses everyone for a day, an answer that trickles or
 * never ends), some sabotage one endpoint of the real reference server behind the planted proxy
 * (a hang, dropped connections, oversized headers). The suite must end within its bounds, say
 * what happened in one line, and write its reports.
 */
import http from "node:http";
import { listenOnLoopback, type Mutation } from "./proxy.ts";

export type HostileMode = "html-everywhere" | "404-everywhere" | "always-429" | "trickle" | "endless-body";

/** A running hostile server: its URL and how to stop it. */
export type HostileServer = Awaited<ReturnType<typeof listenOnLoopback>>;

const MB = 1024 * 1024;

function answer(mode: HostileMode, res: http.ServerResponse): void {
  switch (mode) {
    case "html-everywhere":
      res
        .writeHead(200, { "content-type": "text/html" })
        .end("<!doctype html><title>Shop</title><h1>Welcome</h1>");
      return;
    case "404-everywhere":
      res.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
      return;
    case "always-429":
      // A limiter that has decided this client may come back tomorrow.
      res.writeHead(429, { "content-type": "application/problem+json", "retry-after": "100000" }).end(
        JSON.stringify({
          type: "/problems/rate-limited",
          title: "Too many requests",
          status: 429,
          detail: "later",
        }),
      );
      return;
    case "trickle": {
      res.writeHead(200, { "content-type": "application/json" });
      const timer = setInterval(() => res.write(" "), 500);
      res.on("close", () => clearInterval(timer));
      return;
    }
    case "endless-body": {
      // 50 MB of JSON-looking text, no Content-Length: only a cap read as it streams bounds it.
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(MB, " ");
      let sent = 0;
      const pump = () => {
        while (sent < 50 && res.write(chunk)) sent++;
        if (sent >= 50) res.end();
        else res.once("drain", pump);
      };
      res.on("error", () => {});
      pump();
      return;
    }
  }
}

export function startHostileServer(mode: HostileMode): Promise<HostileServer> {
  return listenOnLoopback(http.createServer((_req, res) => answer(mode, res)));
}

/** One endpoint never answers: no headers, no close. */
export function hangingEndpoint(pathname: string): Mutation {
  return { sabotage: (req) => req.pathname === pathname };
}

/** Every third connection is dropped without an answer. */
export function droppedConnections(): Mutation {
  let n = 0;
  return {
    sabotage: (_req, res) => {
      if (++n % 3 !== 0) return false;
      res.socket?.destroy();
      return true;
    },
  };
}

/** One endpoint answers with a 100 KB header (Node's client refuses headers over 16 KB). */
export function oversizedHeaders(pathname: string): Mutation {
  return {
    sabotage: (req, res) => {
      if (req.pathname !== pathname) return false;
      res
        .writeHead(200, { "content-type": "application/json", "x-padding": "x".repeat(100 * 1024) })
        .end("{}");
      return true;
    },
  };
}
