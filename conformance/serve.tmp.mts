import { startServer } from "../reference-server/index.ts";
const s = await startServer({ port: 18089, host: "127.0.0.1", dbPath: ":memory:" });
console.log(s.url, JSON.stringify(s.demo));
