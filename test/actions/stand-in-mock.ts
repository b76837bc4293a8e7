/**
 * A stand-in `dealkit` package for the client action's tests (actions/client/action.yml), packed
 * as a tarball the offline npm of actions.test.ts installs like the real one. Its `dealkit mock`
 * records its arguments, listens where asked and prints the real mock's ready line, labels
 * answers as the mock with variations does, serves a clients report whose verdict the test
 * chooses (STAND_IN_VERDICT), and writes that report to its --clients-report file on SIGINT. The
 * action's wiring is judged, offline and in seconds; the mock itself is judged in mocks/.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const BIN = `#!/usr/bin/env node
import { appendFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
const argv = process.argv.slice(2);
if (argv[0] === "--version") { console.log("0.0.0-stand-in"); process.exit(0); }
appendFileSync(process.env.STAND_IN_ARGS, JSON.stringify(argv) + "\\n");
const opt = (name) => { const i = argv.indexOf(name); return i < 0 ? undefined : argv[i + 1]; };
const verdict = process.env.STAND_IN_VERDICT;
const findings = verdict === "failed" ? [{ rule: "client-waits-retry-after", message: "retried 3 times at once after a 429" }] : [];
const report = { kind: "dealkit-clients", verdict, headline: "1 client, " + verdict, observed: 1, clients: [{ client: "127.0.0.1", verdict, findings }] };
const server = createServer((req, res) => {
  if (req.url === "/__dealkit/clients") {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(JSON.stringify(report));
  }
  res.writeHead(200, { "content-type": "application/json", "x-dealkit-variations": opt("--variations") ? "added-fields,keys-shuffled" : "" });
  res.end("{}");
});
server.listen(Number(opt("--port")), "127.0.0.1", () => {
  console.log("dealkit mock listening on http://127.0.0.1:" + server.address().port + " (stand-in). Ctrl-C stops it.");
});
process.on("SIGINT", () => {
  const path = opt("--clients-report")?.replace(/^json=/, "");
  if (path) writeFileSync(path, JSON.stringify(report));
  process.exit(0);
});
`;

/** Packs the stand-in into `dir`; returns the tarball's path. */
export function standInMockTarball(dir: string): string {
  const pkg = join(dir, "package");
  mkdirSync(join(pkg, "bin"), { recursive: true });
  writeFileSync(
    join(pkg, "package.json"),
    JSON.stringify({
      name: "dealkit",
      version: "0.0.0-stand-in",
      type: "module",
      bin: { dealkit: "bin/dealkit.js" },
    }),
  );
  writeFileSync(join(pkg, "bin", "dealkit.js"), BIN, { mode: 0o755 });
  const tarball = join(dir, "dealkit-stand-in.tgz");
  execFileSync("tar", ["czf", tarball, "-C", dir, "package"]);
  return tarball;
}
