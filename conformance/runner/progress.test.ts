import { describe, expect, it } from "vitest";
import { conformanceCommand } from "../main.ts";
import { LiveLine } from "../reporters/live-line.ts";
import { Progress, plainProgressLine, progressLine } from "./progress.ts";

describe("the live progress line", () => {
  it("says the phase, the requests sent of planned, the findings and the time left", () => {
    let now = 1_000_000;
    let sent = 12;
    const changes: string[] = [];
    const progress = new Progress(
      { sent: () => sent, failures: () => 1, deadline: now + 170_000 },
      () => changes.push(progressLine(progress.state())),
      () => now,
    );
    expect(progressLine(progress.state())).toBe("discovery · 12 requests · 1 finding · 2 min 50 s left");
    progress.planned = 190;
    progress.enter("burst");
    sent = 73;
    now += 20_000;
    progress.waiting(now + 45_500, "Retry-After");
    expect(progressLine(progress.state())).toBe(
      "waiting for Retry-After: 46 s left · 73/190 requests · 1 finding · 2 min 30 s left",
    );
    progress.waited();
    progress.enter("exploration");
    expect(changes).toEqual([
      "burst · 12/190 requests · 1 finding · 2 min 50 s left",
      "waiting for Retry-After: 46 s left · 73/190 requests · 1 finding · 2 min 30 s left",
      "burst · 73/190 requests · 1 finding · 2 min 30 s left",
      "exploration · 73/190 requests · 1 finding · 2 min 30 s left",
    ]);
  });

  // Regression: without a terminal, a wait printed "… 4 requests sent" four times and looked hung.
  it("without a terminal, counts a wait down and never prints the same line twice in a row", () => {
    let now = 1_000_000;
    const progress = new Progress(
      { sent: () => 4, failures: () => 0, deadline: now + 300_000 },
      undefined,
      () => now,
    );
    progress.enter("burst");
    progress.waiting(now + 61_000, "the window of this address to empty");
    const lines: string[] = [];
    for (let i = 0; i < 4; i++, now += 15_000) lines.push(plainProgressLine(progress.state()));
    expect(lines).toEqual([
      "  … waiting for the window of this address to empty: 61 s left (4 requests sent)",
      "  … waiting for the window of this address to empty: 46 s left (4 requests sent)",
      "  … waiting for the window of this address to empty: 31 s left (4 requests sent)",
      "  … waiting for the window of this address to empty: 16 s left (4 requests sent)",
    ]);
    progress.waited();
    expect(plainProgressLine(progress.state())).toBe(
      "  … burst: 4 requests sent, 240 s left within --max-time",
    );
  });

  it("redraws one line in place, prints log lines above it, and erases it at the end", () => {
    const written: string[] = [];
    const line = new LiveLine({ isTTY: true, columns: 30, write: (s) => written.push(s) });
    line.update("plan · 10/190 requests");
    line.print("[  3.0s] fallbacks: 4 requests");
    line.update("plan · 11/190 requests · 0 findings · 1 min 2 s left");
    line.clear();
    expect(written).toEqual([
      "\r\x1b[Kplan · 10/190 requests",
      "\r\x1b[K[  3.0s] fallbacks: 4 requests\nplan · 10/190 requests",
      "\r\x1b[Kplan · 11/190 requests · 0 f…",
      "\r\x1b[K",
    ]);
  });
});

describe("dealkit conformance's progress, TTY or not", () => {
  const run = async (isTTY: boolean) => {
    const written: string[] = [];
    const lines: string[] = [];
    const { code } = await conformanceCommand({
      seed: 7,
      reports: [],
      skipSlow: true,
      randomRuns: 0,
      only: ["response-schema", "rate-limit"],
      out: (l) => lines.push(l),
      terminal: { isTTY, columns: 200, write: (s) => written.push(s) },
    });
    return { code, written: written.join(""), lines };
  };

  it("on a TTY, updates one line through the phases and erases it before the report", async () => {
    const { code, written } = await run(true);
    expect(code).toBe(0);
    const states = written.split("\r\x1b[K").filter((s) => s !== "" && !s.includes("\n"));
    expect(states[0]).toMatch(/^discovery · \d+ requests · 0 findings · \d+ min \d+ s left$/);
    const phases = new Set(states.map((s) => s.split(" · ")[0]));
    expect(phases).toContain("burst");
    expect(phases).toContain("plan");
    expect(states.some((s) => /^plan · \d+\/\d+ requests/.test(s))).toBe(true);
    // The report's table comes after the line was erased, never on the same line as it.
    const erased = written.indexOf("\r\x1b[K\r\x1b[K\n");
    expect(erased).toBeGreaterThan(0);
    expect(written.slice(erased)).toContain("check");
    expect(written).not.toContain("requests sent");
  }, 120_000);

  it("without a TTY, writes no live line: plain log lines as before", async () => {
    const { code, written, lines } = await run(false);
    expect(code).toBe(0);
    expect(written).toBe("");
    expect(lines.some((l) => l.includes("rate in force"))).toBe(true);
    expect(lines.join("\n")).not.toContain("\r");
  }, 120_000);
});
