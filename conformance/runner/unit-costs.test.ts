import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import type { Exchange } from "../types.ts";
import { UnitCosts } from "./unit-costs.ts";

const spec = await loadSpec();
let clock = 0;
const exchange = (operationId: string): Exchange => {
  clock += 1;
  return {
    request: { method: "GET", pathname: "/x", query: [], headers: {}, label: "t" },
    url: "http://t/x",
    operation: spec.operation(operationId),
    status: 200,
    headers: {},
    text: "",
    body: "",
    sentAt: clock,
    receivedAt: clock + 0.5,
  };
};

/** Sends requests one after another from one address, each answered with the next RateLimit-Remaining. */
function sequence(costs: UnitCosts, steps: [string, number][], address = "a"): void {
  for (const [operationId, remaining] of steps) {
    const flight = costs.begin(address);
    costs.end(address, flight, exchange(operationId), remaining);
  }
}

describe("UnitCosts", () => {
  it("an operation that lowers RateLimit-Remaining by two every time it goes alone costs two", () => {
    const costs = new UnitCosts();
    sequence(costs, [
      ["getMeta", 59],
      ["searchAlerts", 57],
      ["getRank", 56],
      ["searchAlerts", 54],
      ["getFeed", 53],
    ]);
    expect(costs.costly().map((c) => [c.operation, c.units, c.requests])).toEqual([["searchAlerts", 2, 2]]);
  });

  it("one sample, or an operation that sometimes costs one, proves nothing", () => {
    const costs = new UnitCosts();
    sequence(costs, [
      ["getMeta", 59],
      ["searchAlerts", 57],
      ["getRank", 56],
      ["getRank", 54],
      ["getRank", 53],
    ]);
    expect(costs.costly()).toEqual([]);
  });

  it("requests in flight together are not read (the server may count them in either order)", () => {
    const costs = new UnitCosts();
    sequence(costs, [["getMeta", 59]]);
    const a = costs.begin("a");
    const b = costs.begin("a");
    costs.end("a", a, exchange("searchAlerts"), 57);
    costs.end("a", b, exchange("searchAlerts"), 56);
    expect(a.alone).toBe(false);
    expect(costs.costly()).toEqual([]);
  });

  it("addresses are counted apart", () => {
    const costs = new UnitCosts();
    sequence(costs, [["getMeta", 59]], "a");
    sequence(costs, [["getMeta", 59]], "b");
    sequence(costs, [["searchAlerts", 58]], "a");
    sequence(costs, [["searchAlerts", 58]], "b");
    expect(costs.costly()).toEqual([]);
  });
});
