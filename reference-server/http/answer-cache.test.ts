/** The server's whole-answer cache: kept only for the second and data state it was computed in. */
import { describe, expect, it } from "vitest";
import type { Operation } from "../../src/spec/types.ts";
import type { Answer } from "../routes/context.ts";
import { AnswerCache } from "./answer-cache.ts";

const answer = (body: string, secured = false): Answer => ({
  status: 200,
  body: Buffer.from(body),
  operation: { operationId: "op", secured } as unknown as Operation,
});

describe("AnswerCache", () => {
  it("answers a request again within its second and data state, and never after either changes", () => {
    const cache = new AnswerCache(8);
    expect(cache.lookup("http://h", "/a", 100, "1:1")).toBeUndefined();
    cache.keep("http://h", "/a", answer("a"));
    expect(cache.lookup("http://h", "/a", 100, "1:1")).toBeUndefined();
    const kept = answer("a");
    cache.keep("http://h", "/a", kept);
    expect(cache.lookup("http://h", "/a", 100, "1:1")).toBe(kept);
    // A write (a live insert) is a new data state: the answer is computed again, twice.
    expect(cache.lookup("http://h", "/a", 100, "2:1")).toBeUndefined();
    cache.keep("http://h", "/a", answer("a2"));
    cache.keep("http://h", "/a", answer("a2"));
    expect(cache.lookup("http://h", "/a", 100, "2:1")).toBeDefined();
    // Another host is another request: its self links differ.
    expect(cache.lookup("http://other", "/a", 100, "2:1")).toBeUndefined();
    // The next second: the clock may have moved a rank window.
    expect(cache.lookup("http://h", "/a", 101, "2:1")).toBeUndefined();
    cache.keep("http://h", "/a", answer("a3"));
    expect(cache.lookup("http://h", "/a", 101, "2:1")).toBeUndefined();
  });

  it("keeps a request's answer from its second computation in the second: one computed once is not kept", () => {
    const cache = new AnswerCache(8);
    cache.lookup("http://h", "/x", 100, "s");
    for (let i = 0; i < 6; i++) cache.keep("http://h", `/new/${i}`, answer(String(i)));
    expect(cache.size).toBe(0);
    // Remembered per base URL: the same path on another host is another request.
    cache.keep("https://h", "/new/0", answer("0"));
    expect(cache.size).toBe(0);
    cache.keep("http://h", "/new/0", answer("0"));
    expect(cache.size).toBe(1);
    expect(cache.lookup("http://h", "/new/0", 100, "s")).toBeDefined();
  });

  it("never keeps a secured operation's answer (it depends on the account)", () => {
    const cache = new AnswerCache(8);
    cache.lookup("http://h", "/mine", 100, "s");
    cache.keep("http://h", "/mine", answer("mine", true));
    expect(cache.lookup("http://h", "/mine", 100, "s")).toBeUndefined();
  });

  it("holds at most its bound, however many distinct requests come", () => {
    const cache = new AnswerCache(4);
    cache.lookup("http://h", "/x", 100, "s");
    for (let i = 0; i < 50; i++) {
      const base = i % 2 ? "http://h" : "https://h";
      cache.keep(base, `/${i}`, answer(String(i)));
      cache.keep(base, `/${i}`, answer(String(i)));
      expect(cache.size).toBeLessThanOrEqual(4);
    }
    expect(cache.size).toBeGreaterThan(0);
  });
});
