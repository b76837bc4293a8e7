/**
 * Child-process entry: the search scenario's machine floor. A bare node:http server that answers
 * every GET with one fixed body (bytes from `bodyFile`, Content-Type and Content-Length only) after
 * burning `cpuMicros` of its own CPU time: what the reference server's first-seen answer costs with
 * no routing, database or serialization. Timed one request at a time by the same client, its
 * p99 is what this machine's stalls alone make of that much work: the floor under the search target.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { serveBare } from "./serve-bare.ts";

const { bodyFile, contentType, cpuMicros } = JSON.parse(process.argv[2] ?? "{}") as {
  bodyFile: string;
  contentType: string;
  cpuMicros: number;
};
const body = readFileSync(bodyFile);
const headers = { "Content-Type": contentType, "Content-Length": body.length };

/**
 * Spins until this process has used `micros` of CPU time (user + system) since `start`. CPU time,
 * not wall time: a stall for a CPU during the spin must not shorten the work, as it would not
 * shorten a real server's work.
 */
function burn(start: NodeJS.CpuUsage, micros: number): void {
  for (;;) {
    const used = process.cpuUsage(start);
    if (used.user + used.system >= micros) return;
  }
}

const server = createServer((_req, res) => {
  burn(process.cpuUsage(), cpuMicros);
  res.writeHead(200, headers).end(body);
});
server.keepAliveTimeout = 60_000;
serveBare(server);
