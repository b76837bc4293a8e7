/** How the throughput target is judged: adjacent server/baseline pairs, A B B A, median of ratios. */
import { describe, expect, it } from "vitest";
import { pairedRatios, pairedSummary, pairOrder } from "./throughput-pairs.ts";

describe("throughput pairs", () => {
  it("alternates which of the two runs first, so the rounds read A B B A A B B A", () => {
    const sequence = [0, 1, 2, 3].flatMap((round) => pairOrder(round, "A", "B"));
    expect(sequence.join("")).toBe("ABBAABBA");
  });

  it("judges by the median of each round's ratio, so one noisy pair does not decide", () => {
    // Round 2's baseline ran during a burst of other work: its pair is an outlier, not the verdict.
    const ratios = pairedRatios([900, 880, 910, 870, 905], [1000, 1000, 500, 1000, 1000]);
    expect(ratios).toEqual([0.9, 0.88, 1.82, 0.87, 0.905]);
    expect(pairedSummary(ratios)).toEqual({ median: 0.9, min: 0.87, max: 1.82 });
  });

  it("pairs only rounds where both ran, and leaves out a pair without a baseline figure", () => {
    expect(pairedRatios([100, 100, 100], [200, 0])).toEqual([0.5, Number.NaN]);
    expect(pairedSummary([0.5, Number.NaN])).toEqual({ median: 0.5, min: 0.5, max: 0.5 });
    expect(pairedSummary([]).median).toBeNaN();
  });
});
