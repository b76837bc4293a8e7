import type { Clock } from "./clock.ts";

export interface RetryPolicy {
  /** Retries after 429s, at most; 0 surfaces the first 429. Default 3. */
  maxRetries?: number;
  /** Total seconds the client may spend waiting on Retry-After for one call. Default 120. */
  maxWaitSeconds?: number;
  /** Told before each wait (seconds, 1-based retry number), e.g. to log it. */
  onWait?: (seconds: number, retry: number) => void;
}

/** The last 429 the retry loop gave up on, with the Retry-After it carried. */
export interface GaveUp {
  response: Response;
  retryAfterSeconds: number;
}

/**
 * Seconds a 429 asks to wait: delta-seconds or an HTTP date. Never 0: the API says clients
 * never retry at once, so a missing or unreadable header still waits one second.
 */
export function retryAfterSeconds(header: string | null, nowMs: number): number {
  if (header !== null) {
    const trimmed = header.trim();
    if (/^[0-9]+$/.test(trimmed)) return Math.max(1, Number(trimmed));
    const date = Date.parse(trimmed);
    if (!Number.isNaN(date)) return Math.max(1, Math.ceil((date - nowMs) / 1000));
  }
  return 1;
}

/**
 * A fetch that waits Retry-After on a 429 and tries again, within the caller's bounds. When a
 * bound would be passed it returns the 429 untouched (the client turns it into a DealApiError),
 * instead of waiting longer than the caller allowed.
 */
export function retryingFetch(
  fetcher: (request: Request) => Promise<Response>,
  clock: Clock,
  policy: RetryPolicy = {},
  beforeEach: () => Promise<void> = async () => {},
): (request: Request) => Promise<Response> {
  const maxRetries = policy.maxRetries ?? 3;
  const maxWaitSeconds = policy.maxWaitSeconds ?? 120;
  return async (request) => {
    let waited = 0;
    for (let attempt = 0; ; attempt++) {
      await beforeEach();
      const response = await fetcher(request.clone());
      if (response.status !== 429) return response;
      const wait = retryAfterSeconds(response.headers.get("retry-after"), clock.now());
      if (attempt >= maxRetries || waited + wait > maxWaitSeconds) return response;
      await response.body?.cancel();
      policy.onWait?.(wait, attempt + 1);
      await clock.sleep(wait * 1000);
      waited += wait;
    }
  };
}
