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
  const client = new OneConnection(baseUrl);
  const samples: number[] = [];
  let non2xx = 0;
  const deadline = performance.now() + durationMs;
  try {
    for (let i = 0; performance.now() < deadline; i++) {
      const { ms, status } = await client.get(paths[i % paths.length] as string);
      samples.push(ms);
      if (status < 200 || status > 299) non2xx++;
    }
  } finally {
    client.close();
  }
  return { samples, non2xx };
}

/** A keep-alive connection that times each GET from the request to the last byte of the body. */
export class OneConnection {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  constructor(private readonly baseUrl: string) {}

  get(path: string): Promise<{ ms: number; status: number; body: string }> {
    const t0 = performance.now();
    return new Promise((resolve, reject) => {
      get(this.baseUrl + path, { agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.once("end", () =>
          resolve({
            ms: performance.now() - t0,
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.once("error", reject);
      }).once("error", reject);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
