/**
 * Example: read the one-hour rank more often than the API allows, and survive the 429 by
 * waiting Retry-After (never retrying at once).
 *
 *   npx tsx src/client/example.ts [BASE_URL]      # default http://127.0.0.1:8080 (npm run serve)
 *   npx tsx src/client/example.ts http://127.0.0.1:4010   # against npm run mock
 */
import { pathToFileURL } from "node:url";
import { createDealClient } from "./client.ts";
import { type Clock, realClock } from "./clock.ts";

export async function runExample(
  baseUrl: string,
  clock: Clock = realClock,
  log = console.log,
): Promise<number> {
  const client = createDealClient({
    baseUrl,
    clock,
    retry: {
      maxRetries: 2,
      maxWaitSeconds: 90,
      onWait: (seconds) => log(`429 Too Many Requests: waiting ${seconds} s, as Retry-After asks`),
    },
  });
  const { limit, window_seconds } = (await client.meta()).data.rate_limit;
  log(`${baseUrl} allows ${limit} requests per ${window_seconds} s; sending ${limit + 1} more`);
  let entries = 0;
  for (let i = 0; i <= limit; i++) {
    const rank = await client.rank({ act: "yixiaoshi", limit: 5 });
    entries += rank.data.length;
  }
  const top = (await client.rank({ act: "yixiaoshi", limit: 1 })).data[0];
  log(`done: ${limit + 2} rank calls, ${entries} entries read; top of the hour: ${top?.title ?? "(none)"}`);
  return entries;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await runExample(process.argv[2] ?? "http://127.0.0.1:8080");
}
