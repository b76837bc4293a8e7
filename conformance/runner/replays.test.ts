import { describe, expect, it } from "vitest";
import type { Exchange } from "../types.ts";
import { Replays } from "./replays.ts";

const answer = (receivedAt: number, date: string, remaining: string, text = "{}"): Exchange => ({
  request: { method: "GET", pathname: "/a", query: [], headers: {}, label: "t" },
  url: "http://t/a",
  status: 200,
  headers: { date, "ratelimit-remaining": remaining },
  text,
  body: text,
  sentAt: receivedAt - 0.01,
  receivedAt,
});

describe("Replays: an answer a cache repeats", () => {
  it("the same Date, RateLimit-Remaining and body seconds later: replayed", () => {
    const r = new Replays();
    expect(r.see(answer(100, "D1", "57"))).toBeUndefined();
    expect(r.see(answer(103, "D1", "57"))).toBe(
      "the Date (D1), RateLimit-Remaining (57) and body of the answer to the same URL 3 s before",
    );
  });

  it.each([
    ["within the same second (two fresh answers can agree)", answer(100.6, "D1", "57")],
    ["another Date", answer(103, "D2", "57")],
    ["another RateLimit-Remaining", answer(103, "D1", "56")],
    ["another body", answer(103, "D1", "57", '{"x":1}')],
  ])("%s: not a replay", (_what, later) => {
    const r = new Replays();
    r.see(answer(100, "D1", "57"));
    expect(r.see(later)).toBeUndefined();
  });

  it("a repeat keeps the first answer's time: repeats within a second each still add up", () => {
    const r = new Replays();
    r.see(answer(100, "D1", "57"));
    expect(r.see(answer(101, "D1", "57"))).toBeUndefined();
    expect(r.see(answer(102.5, "D1", "57"))).toMatch(/3 s before$/);
  });
});

describe("Replays: a refusal a cache repeats", () => {
  it("a stored 429 given again seconds later, to whoever asks the URL, is a replay too", () => {
    const r = new Replays();
    const refused = (at: number) => ({ ...answer(at, "D1", "0", '{"status":429}'), status: 429 });
    expect(r.see(refused(100))).toBeUndefined();
    expect(r.see(refused(104))).toMatch(
      /^the Date \(D1\), RateLimit-Remaining \(0\) and body .* 4 s before$/,
    );
  });
});
