import { request } from "node:http";

export interface Got {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body's bytes as they travelled (still content-encoded). */
  raw: Buffer;
  json(): unknown;
}

/**
 * A plain HTTP exchange with a chosen source address (`localAddress`): on loopback every
 * 127.0.0.0/8 address is a distinct client IP, which is how the tests exercise per-IP limits.
 */
export function httpGet(
  url: string,
  options: { method?: string; headers?: Record<string, string>; localAddress?: string } = {},
): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? "GET", headers: options.headers, localAddress: options.localAddress },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const raw = Buffer.concat(chunks);
          const text = raw.toString("utf8");
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers))
            headers[k] = Array.isArray(v) ? v.join(", ") : String(v);
          resolve({ status: res.statusCode ?? 0, headers, text, raw, json: () => JSON.parse(text) });
        });
      },
    );
    req.on("error", reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`timeout: ${url}`)));
    req.end();
  });
}
