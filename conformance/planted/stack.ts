/**
 * Planted faults of the stack in front of a correct API, not of the API itself: a proxy that
 * compresses badly, a shared cache keyed on the URL, a proxy's own error page for a long URL.
 * Each changes what clients receive the way a real component does, and nothing else.
 */
import { gzipSync } from "node:zlib";
import type { Mutation, ProxiedRequest, ProxiedResponse } from "./proxy.ts";

/** What a proxy compresses: bodies of 1 KiB and more, as nginx's gzip_min_length 1024. */
const COMPRESS_FROM = 1024;

const offersGzip = (req: ProxiedRequest) => /\bgzip\b/i.test(String(req.headers["accept-encoding"] ?? ""));

/**
 * A proxy compressing answers with gzip, one way wrong: `when` says which requests it compresses
 * for, `encode` what it does to the body and its headers.
 */
function compressing(
  when: (req: ProxiedRequest) => boolean,
  encode: (
    body: Buffer,
    headers: Record<string, string>,
  ) => { bytes: Buffer; headers: Record<string, string> },
): Mutation {
  const encoded = (req: ProxiedRequest, res: ProxiedResponse, right: boolean): ProxiedResponse => {
    const body = Buffer.from(res.body);
    if (body.length < COMPRESS_FROM || !(right ? offersGzip(req) : when(req))) return res;
    const { bytes, headers } = (right ? correctly : encode)(body, {
      ...res.headers,
      "content-encoding": "gzip",
      vary: "Accept-Encoding",
    });
    return { ...res, headers, bytes };
  };
  return {
    response: (req, res) => encoded(req, res, false),
    // A correct compressing proxy in the same place: gzip once, with Vary, for clients that offer it.
    deviated(req, upstream, sent) {
      if (!upstream) return false;
      const right = encoded(req, upstream, true);
      const header = (r: ProxiedResponse) => JSON.stringify(Object.entries(r.headers).sort());
      const bytes = (r: ProxiedResponse) => r.bytes ?? Buffer.from(r.body);
      return (
        right.status !== sent.status || header(right) !== header(sent) || !bytes(right).equals(bytes(sent))
      );
    },
  };
}

const correctly = (body: Buffer, headers: Record<string, string>) => ({ bytes: gzipSync(body), headers });

/** Compressed for clients that offered gzip, without Vary: a cache may give it to one that did not. */
export const compressedWithoutVary = compressing(offersGzip, (body, headers) => {
  const { vary: _dropped, ...rest } = headers;
  return { bytes: gzipSync(body), headers: rest };
});

/** Compressed whatever the client offered: curl and scripts get bytes they cannot read. */
export const compressedUnasked = compressing(
  () => true,
  (body, headers) => ({ bytes: gzipSync(body), headers }),
);

/** Compressed twice (an upstream's gzip, gzipped again) under one label: decoded once, still gzip. */
export const compressedTwice = compressing(offersGzip, (body, headers) => ({
  bytes: gzipSync(gzipSync(body)),
  headers,
}));

/** Compressed, then cut short (a proxy's buffer limit): the gzip stream ends early. */
export const compressedTruncated = compressing(offersGzip, (body, headers) => {
  const gz = gzipSync(body);
  return { bytes: gz.subarray(0, Math.floor(gz.length / 2)), headers };
});

/**
 * A shared cache in front of the personal streams, keyed on the URL alone (nginx's default key,
 * most CDNs): the owner's 200 is served for 10 seconds to whoever asks the same URL, key or not.
 * It says nothing about itself (no Age, no X-Cache): only the answers give it away.
 */
export function cacheIgnoringKey(): Mutation {
  const stored = new Map<string, { res: ProxiedResponse; until: number }>();
  const key = (req: ProxiedRequest) => `${req.pathname}?${req.query}`;
  const personal = (req: ProxiedRequest) => req.method === "GET" && req.pathname.startsWith("/api/v1/my/");
  return {
    request(req) {
      const hit = personal(req) ? stored.get(key(req)) : undefined;
      return hit && hit.until > Date.now() ? hit.res : req;
    },
    response(req, res) {
      if (personal(req) && res.status === 200) stored.set(key(req), { res, until: Date.now() + 10_000 });
      return res;
    },
  };
}

/** nginx's own 414 page: a request line over 4 KB never reaches the API (large_client_header_buffers 4 4k). */
export const longUrlRefusedByProxy: Mutation = {
  request(req) {
    const line = `${req.method} ${req.pathname}?${req.query} HTTP/1.1`;
    if (line.length <= 4096) return req;
    return {
      status: 414,
      headers: { "content-type": "text/html", server: "nginx" },
      body: "<html>\r\n<head><title>414 Request-URI Too Large</title></head>\r\n<body>\r\n<center><h1>414 Request-URI Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
    };
  },
};

/**
 * A WAF in front with a rule against shell pipes: any query holding `|` (the API's own word
 * separator) gets its 403 page, so every multi-word search a client sends is blocked.
 */
export const wafBlocksPipes: Mutation = {
  request(req) {
    if (!req.query.toString().includes("%7C")) return req;
    return {
      status: 403,
      headers: { "content-type": "text/html; charset=utf-8", server: "waf" },
      body: "<html><body><h1>403 Forbidden</h1><p>Request blocked by the web application firewall.</p></body></html>",
    };
  },
};

/**
 * Varnish's default http_req_hdr_len (8 KB): a header line over 8 KB gets an empty 400 from the
 * component in front, although the API serves heads up to 16 KB (x-request-gate).
 */
export const longHeaderRefusedByProxy: Mutation = {
  request(req) {
    const longest = Math.max(
      ...Object.entries(req.headers).map(([name, value]) => `${name}: ${String(value)}`.length),
    );
    if (longest <= 8192) return req;
    return { status: 400, headers: {}, body: "" };
  },
};
