import { Agent, get } from "node:http";

export interface LatencySamples {
  /** Milliseconds per request, in order. */
  samples: number[];
  non2xx: number;
}

/**
 * One connection, one request at a time, for `durationMs`: the latency a single client sees,
 * timed here with sub-millisecond resolution (autocannon's histogram keeps whole milliseconds,
 * too coarse for a 20 ms target). Paths are requested in turn.
 */
export async function sequentialLatencies(
  baseUrl: string,
  paths: string[],
  durationMs: number,
): Promise<LatencySamples> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const samples: number[] = [];
  let non2xx = 0;
  const deadline = performance.now() + durationMs;
  try {
    for (let i = 0; performance.now() < deadline; i++) {
      const t0 = performance.now();
      const status = await request(baseUrl + paths[i % paths.length], agent);
      samples.push(performance.now() - t0);
      if (status < 200 || status > 299) non2xx++;
    }
  } finally {
    agent.destroy();
  }
  return { samples, non2xx };
}

function request(url: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (res) => {
      res.resume();
      res.once("end", () => resolve(res.statusCode ?? 0));
      res.once("error", reject);
    }).once("error", reject);
  });
}
