import { describe, expect, it } from "vitest";
import type { Clock } from "./clock.ts";
import { RateLimiter } from "./limiter.ts";
import { MemoryStore } from "./memory.ts";
import { ResilientStore, type SharedStore } from "./resilient-store.ts";
import type { WindowState } from "./store.ts";

const T0 = 1_795_000_000_000;
const policy = { limit: 60, windowSeconds: 60 };
const WINDOW_MS = 60_000;

/** Timers run only when the test moves time: every timeout and backoff is exact. */
class ManualClock implements Clock {
  t = T0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();
  private next = 1;

  now = () => this.t;

  setTimeout = (fn: () => void, ms: number) => {
    const id = this.next++;
    this.timers.set(id, { at: this.t + ms, fn });
    return id;
  };

  clearTimeout = (id: unknown) => {
    this.timers.delete(id as number);
  };

  /** Delays (from now) of the pending timers. */
  pending(): number[] {
    return [...this.timers.values()].map((t) => t.at - this.t).sort((a, b) => a - b);
  }

  /** Moves time forward by `ms`, running each timer due on the way, and what it sets off. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    await settle();
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, t]) => t.at <= end)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.t = due[1].at;
      due[1].fn();
      await settle();
    }
    this.t = end;
  }
}

/** Lets every pending promise callback run (a macrotask comes after all microtasks). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A stand-in for Redis: answers from its own memory, or stalls (never answers), or refuses at once. */
class FakeShared implements SharedStore {
  mode: "ok" | "stall" | "down" = "ok";
  readonly counts = new MemoryStore();
  calls = 0;
  pings: number[] = [];
  closed = false;

  constructor(private readonly clock: ManualClock) {}

  private gate(): Promise<void> {
    if (this.mode === "stall") return new Promise(() => {});
    if (this.mode === "down") return Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:1"));
    return Promise.resolve();
  }

  async hit(key: string, nowMs: number, limit: number, windowMs: number): Promise<WindowState> {
    this.calls++;
    await this.gate();
    return this.counts.hit(key, nowMs, limit, windowMs);
  }

  async peek(key: string, nowMs: number, windowMs: number) {
    this.calls++;
    await this.gate();
    return this.counts.peek(key, nowMs, windowMs);
  }

  async ping(): Promise<void> {
    this.pings.push(this.clock.t - T0);
    await this.gate();
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

function setup(timeoutMs = 50) {
  const clock = new ManualClock();
  const shared = new FakeShared(clock);
  const local = new MemoryStore();
  const logs: string[] = [];
  const store = new ResilientStore(shared, local, {
    timeoutMs,
    clock,
    log: (line) => logs.push(line),
    name: "Redis at test:6379",
    breaker: { minProbeMs: 100, maxProbeMs: 2_000, stableMs: 30_000 },
  });
  return { clock, shared, local, logs, store, limiter: new RateLimiter(store, policy) };
}

/** Whether `p` has settled, without moving the manual clock. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await settle();
  return done;
}

describe("resilient rate-limit store (injected clock)", () => {
  it("counts in the shared store while it answers, and says so", async () => {
    const { shared, local, store, limiter, logs } = setup();
    for (let i = 0; i < 3; i++) await limiter.hit("a", T0);
    expect(shared.calls).toBe(3);
    expect(local.size).toBe(0);
    expect(store.state()).toEqual({ mode: "shared", sharedConfigured: true, sinceMs: T0 });
    expect(logs).toEqual([]);
  });

  it("a stalled shared store costs each waiting request the timeout once, then nothing", async () => {
    const { clock, shared, local, limiter, logs } = setup();
    shared.mode = "stall";
    const waiting = Array.from({ length: 5 }, () => limiter.hit("a", T0));
    await clock.advance(49);
    expect(await settled(Promise.any(waiting))).toBe(false);
    await clock.advance(1);
    const decisions = await Promise.all(waiting);
    // Decided at the timeout, counted locally: the limit still holds.
    expect(decisions.map((d) => d.remaining).sort((x, y) => y - x)).toEqual([59, 58, 57, 56, 55]);
    expect(local.size).toBe(1);
    // Breaker open: the next request is decided without the clock moving, Redis untouched.
    const callsBefore = shared.calls;
    const next = limiter.hit("a", T0);
    expect(await settled(next)).toBe(true);
    expect((await next).remaining).toBe(54);
    expect(shared.calls).toBe(callsBefore);
    expect(logs).toEqual([
      "dealkit: rate-limit store: Redis at test:6379 failed (Redis at test:6379 did not answer within 50 ms); " +
        "limiting per instance in memory until it answers again",
    ]);
    expect(limiter.storeState()).toMatchObject({
      mode: "local",
      sinceMs: T0 + 50,
      lastError: "Redis at test:6379 did not answer within 50 ms",
      lastErrorAtMs: T0 + 50,
    });
  });

  it("a refusing shared store trips at the first error, without waiting", async () => {
    const { shared, limiter, logs } = setup();
    shared.mode = "down";
    const first = limiter.hit("a", T0);
    expect(await settled(first)).toBe(true);
    expect((await first).allowed).toBe(true);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain("(connect ECONNREFUSED 127.0.0.1:1)");
  });

  it("limits per instance while local: never an error, never unlimited", async () => {
    const { shared, limiter } = setup();
    shared.mode = "down";
    for (let i = 0; i < 60; i++) expect((await limiter.hit("a", T0 + i)).allowed).toBe(true);
    expect((await limiter.hit("a", T0 + 100)).allowed).toBe(false);
    expect((await limiter.peek("a", T0 + 100)).remaining).toBe(0);
  });

  it("probes in the background with backoff, and rejoins when the store answers", async () => {
    const { clock, shared, limiter, logs } = setup();
    shared.mode = "stall";
    const first = limiter.hit("a", T0);
    await clock.advance(50);
    await first;
    expect(clock.pending()).toEqual([100]);
    // Stalled probes each wait the timeout, then the delay doubles: 100, 200, 400, 800, 1600, 2000.
    await clock.advance(7_000);
    expect(shared.pings).toEqual([150, 400, 850, 1700, 3350, 5400]);
    // Requests meanwhile never wait for a probe.
    expect(await settled(limiter.hit("a", clock.t))).toBe(true);
    shared.mode = "ok";
    await clock.advance(2_000);
    expect(shared.pings.at(-1)).toBe(7450);
    expect(limiter.storeState()).toMatchObject({ mode: "shared", sinceMs: T0 + 7450 });
    expect(logs[1]).toBe(
      "dealkit: rate-limit store: Redis at test:6379 answers again after 7.4 s; limits are shared again",
    );
    expect(clock.pending()).toEqual([]);
    // Counting is shared again: the shared store sees the next hit.
    const calls = shared.calls;
    await limiter.hit("b", clock.t);
    expect(shared.calls).toBe(calls + 1);
    expect(logs).toHaveLength(2);
  });

  it("starts on memory when the shared store is unavailable at start, and joins it later", async () => {
    const { clock, shared, store, limiter, logs } = setup();
    shared.mode = "down";
    await store.start(Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:1")));
    expect(logs).toEqual([
      "dealkit: rate-limit store: Redis at test:6379 is unavailable at start (connect ECONNREFUSED 127.0.0.1:1); " +
        "limiting per instance in memory until it answers again",
    ]);
    expect((await limiter.hit("a", T0)).remaining).toBe(59);
    expect(shared.calls).toBe(0);
    shared.mode = "ok";
    await clock.advance(100);
    expect(limiter.storeState().mode).toBe("shared");
  });

  it("waits at most startWaitMs for a connection that neither succeeds nor fails", async () => {
    const { clock, store } = setup();
    const started = store.start(new Promise(() => {}), 1_000);
    await clock.advance(999);
    expect(await settled(started)).toBe(false);
    await clock.advance(1);
    await started;
    expect(store.state()).toMatchObject({
      mode: "local",
      lastError: "Redis at test:6379 (connecting) did not answer within 1000 ms",
    });
  });

  it("does not switch again on a late failure of a call made before it recovered", async () => {
    const { clock, shared, store, logs } = setup(1_000);
    let failLate: (err: Error) => void = () => {};
    const late = new Promise<never>((_, reject) => {
      failLate = reject;
    });
    const realHit = shared.hit.bind(shared);
    let first = true;
    shared.hit = (...args) => {
      if (!first) return realHit(...args);
      first = false;
      return late;
    };
    const pending = store.hit("a", T0, 60, WINDOW_MS);
    shared.mode = "down";
    await store.hit("b", T0, 60, WINDOW_MS); // trips
    shared.mode = "ok";
    await clock.advance(100); // the probe answers: shared again
    failLate(new Error("reply to an old command"));
    expect((await pending).allowed).toBe(true); // the late failure is still answered, locally
    expect(store.state().mode).toBe("shared");
    expect(logs).toHaveLength(2);
  });

  it("stops probing when closed", async () => {
    const { clock, shared, store } = setup();
    shared.mode = "down";
    await store.hit("a", T0, 60, WINDOW_MS);
    expect(clock.pending()).toEqual([100]);
    await store.close();
    expect(clock.pending()).toEqual([]);
    expect(shared.closed).toBe(true);
  });
});
