import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../src/spec/load.ts";
import type { Spec } from "../../src/spec/spec.ts";
import { readLedger, updateLedger } from "./file.ts";
import { judgeLedger, removalOf, wilsonLower } from "./judge.ts";
import { mergeLedgers } from "./merge.ts";
import { LedgerRecorder } from "./record.ts";
import { emptyLedger, type Ledger } from "./types.ts";

let spec: Spec;
let dir: string;
beforeAll(async () => {
  spec = await loadSpec();
  dir = await mkdtemp(join(tmpdir(), "dealkit-ledger-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const DAY = 86_400_000;
const T0 = Date.parse("2026-01-05T08:00:00Z");
const alert = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  title: `alert ${id}`,
  cateid: "10",
  catename: "微博线报",
  comments: 3,
  url: `https://example.test/${id}`,
  ...extra,
});
const zdm = (id: number) => ({ id, type: "smzdm", title: "z", price: 9.9, mall_name: "京东", brand: null });
const feed = (data: unknown[]) => ({
  data,
  meta: { cate: "all", type: null, limit: 20, count: data.length, retention: 20 },
});

/** One run recording the given feed bodies at a fixed clock, as its delta. */
function runOf(base: Ledger, at: number, bodies: unknown[], run = `r${at}`): Ledger {
  const recorder = new LedgerRecorder(base, run, () => at);
  const schema = spec.responseSchema("getFeed", 200, "application/json");
  for (const body of bodies) recorder.answer("getFeed 200", body, schema);
  return recorder.result();
}

describe("recording", () => {
  it("keys zdm items apart from category items, array items collapsed, types per path", () => {
    const delta = runOf(emptyLedger(), T0, [feed([alert(1), alert(2, { price: 5 })]), feed([zdm(3)])]);
    const fields = delta.kinds["getFeed 200"]?.fields ?? {};
    expect(Object.keys(fields)).toEqual(
      expect.arrayContaining([
        "$",
        "data",
        "data[]",
        "data[].price",
        "data[type=smzdm]",
        "data[type=smzdm].mall_name",
      ]),
    );
    expect(fields["data[].price"]?.n).toBe(1);
    expect(fields["data[]"]?.n).toBe(2);
    expect(fields["data[type=smzdm].brand"]?.types.null?.[0]).toBe(1);
    expect(fields["meta.type"]?.types).toHaveProperty("null");
    expect(delta.kinds["getFeed 200"]?.answers).toBe(2);
  });

  it("counts an absence only for a field known before (from the ledger or earlier in the run)", () => {
    const first = runOf(emptyLedger(), T0, [feed([alert(1, { louzhu: "a" })])]);
    const second = runOf(first, T0 + DAY, [feed([alert(2), alert(3)])]);
    const louzhu = second.kinds["getFeed 200"]?.fields["data[].louzhu"];
    expect(louzhu?.absent).toMatchObject({ n: 2, answers: 1 });
    // Its dates stay those of the ledger: merging the absence back changes no date.
    expect(louzhu?.first).toEqual(first.kinds["getFeed 200"]?.fields["data[].louzhu"]?.first);
  });
});

describe("merging", () => {
  it("is commutative: counts add, first is the earlier, last the later", () => {
    const base = runOf(emptyLedger(), T0, [feed([alert(1, { louzhu: "a" })])]);
    const a = runOf(base, T0 + DAY, [feed([alert(2)])], "a");
    const b = runOf(base, T0 + 2 * DAY, [feed([alert(3, { louzhu: "b" }), zdm(4)])], "b");
    const ab = mergeLedgers(mergeLedgers(base, a), b);
    const ba = mergeLedgers(mergeLedgers(base, b), a);
    expect(ab).toEqual(ba);
    expect(mergeLedgers(a, b)).toEqual(mergeLedgers(b, a));
    expect(ab.runs).toBe(3);
    const louzhu = ab.kinds["getFeed 200"]?.fields["data[].louzhu"];
    expect(louzhu?.n).toBe(2);
    expect(louzhu?.first.run).toBe(`r${T0}`);
    expect(louzhu?.last.run).toBe("b");
    // b saw it after a's absence began: a's streak is over.
    expect(louzhu?.absent).toBeUndefined();
  });

  it("keeps both runs when two race for the file (read-merge-write under a lock, atomic rename)", async () => {
    const path = join(dir, "race.json");
    const deltas = Array.from({ length: 6 }, (_, i) =>
      runOf(emptyLedger(), T0 + i * 1000, [feed([alert(i)])], `race${i}`),
    );
    await Promise.all(deltas.map((d) => updateLedger(path, d)));
    const ledger = await readLedger(path);
    expect(ledger.runs).toBe(6);
    expect(ledger.kinds["getFeed 200"]?.answers).toBe(6);
  });

  it("waits for another run's lock, gives up with a message, and takes over a crashed run's", async () => {
    const { writeFile, utimes } = await import("node:fs/promises");
    const path = join(dir, "locked.json");
    await writeFile(`${path}.lock`, "4242\n");
    const delta = runOf(emptyLedger(), T0, [feed([alert(1)])]);
    await expect(updateLedger(path, delta, { waitMs: 200, sleep: async () => {} })).rejects.toThrow(
      /held by another run/,
    );
    // A lock older than the stale limit belongs to a run that died: taken over.
    const old = new Date(Date.now() - 10 * 60_000);
    await utimes(`${path}.lock`, old, old);
    expect((await updateLedger(path, delta, { waitMs: 200 })).runs).toBe(1);
  });

  it("refuses a file that is not a ledger, and a newer ledger version", async () => {
    const { writeFile } = await import("node:fs/promises");
    const other = join(dir, "other.json");
    await writeFile(other, '{"hello": 1}');
    await expect(readLedger(other)).rejects.toThrow(/not a dealkit ledger/);
    await writeFile(other, JSON.stringify({ ...emptyLedger(), version: 2 }));
    await expect(readLedger(other)).rejects.toThrow(/version 2/);
  });
});

describe("bounded size", () => {
  it("the ledger of 1,000 runs over every kind of feed answer stays under 200 KB", async () => {
    const path = join(dir, "thousand.json");
    let ledger = emptyLedger();
    for (let i = 0; i < 1000; i++) {
      const at = T0 + i * 3_600_000;
      const items = [
        alert(i * 3, { price: i, louzhu: "x", tags: ["a", "b"] }),
        alert(i * 3 + 1),
        zdm(i * 3 + 2),
      ];
      const delta = runOf(ledger, at, [feed(items), feed([zdm(i)])], `run${i}`);
      for (const [kind, body] of [
        [
          "getFeed 400",
          { type: "/problems/invalid-parameter", status: 400, errors: [{ in: "query", name: "cate" }] },
        ],
        [
          "getRank 200",
          {
            data: [alert(i)],
            meta: {
              act: "jintian",
              limit: 20,
              count: 1,
              window: { from: 1, to: 2, timezone: "Asia/Shanghai" },
            },
          },
        ],
      ] as const) {
        const r = new LedgerRecorder(ledger, `run${i}`, () => at);
        r.answer(kind, body);
        r.version("/api/v1", { alive: true, release: "1.1.0" });
        ledger = mergeLedgers(ledger, r.result());
      }
      ledger = mergeLedgers(ledger, delta);
    }
    await updateLedger(path, ledger);
    const bytes = (await readFile(path)).length;
    expect(ledger.runs).toBe(3000);
    expect(bytes).toBeLessThan(200_000);
  });
});

describe("the removal rule", () => {
  it("the Wilson bound is below the rate, and tighter with more answers", () => {
    expect(wilsonLower(20, 20, 2.576)).toBeLessThan(1);
    expect(wilsonLower(200, 200, 2.576)).toBeGreaterThan(wilsonLower(20, 20, 2.576));
  });

  it("a field present in 40% of answers is not reported when one answer lacks it, nor on a short streak", () => {
    const field = { n: 40, missed: 60, types: {}, first: { at: "a", run: "1" }, last: { at: "b", run: "2" } };
    expect(
      removalOf({
        ...field,
        missed: 61,
        absent: { n: 1, answers: 1, runs: 1, from: { at: "c", run: "3" }, to: { at: "c", run: "3" } },
      })?.removed,
    ).toBe(false);
    expect(
      removalOf({
        ...field,
        missed: 65,
        absent: { n: 5, answers: 5, runs: 5, from: { at: "c", run: "3" }, to: { at: "d", run: "4" } },
      })?.removed,
    ).toBe(false);
    // Forty answers in a row without a field carried 40% of the time: chance cannot explain it.
    expect(
      removalOf({
        ...field,
        missed: 100,
        absent: { n: 40, answers: 40, runs: 10, from: { at: "c", run: "3" }, to: { at: "d", run: "4" } },
      })?.removed,
    ).toBe(true);
  });

  it("recorded answers: a field in 40% of them is not reported when the next answer lacks it", () => {
    // A fixed sequence, not a random one: present in answers 0, 2, 5, 7 of every ten (40%).
    const present = (i: number) => [0, 2, 5, 7].includes(i % 10);
    let ledger = emptyLedger();
    for (let i = 0; i < 100; i++)
      ledger = mergeLedgers(
        ledger,
        runOf(ledger, T0 + i * DAY, [feed([alert(i, present(i) ? { price: 9 } : {})])]),
      );
    // The last two answers (98, 99) lacked it, and one more run's answer does too.
    ledger = mergeLedgers(ledger, runOf(ledger, T0 + 100 * DAY, [feed([alert(100)])]));
    const price = ledger.kinds["getFeed 200"]?.fields["data[].price"];
    expect(price?.absent?.answers).toBe(3);
    expect(judgeLedger(ledger, "none", spec.versioning).filter((j) => j.level === "failure")).toEqual([]);
  });

  it("a field always carried and now lacking in one answer only is not yet a removal", () => {
    const field = { n: 100, missed: 1, types: {}, first: { at: "a", run: "1" }, last: { at: "b", run: "2" } };
    expect(
      removalOf({
        ...field,
        absent: { n: 1, answers: 1, runs: 1, from: { at: "c", run: "3" }, to: { at: "c", run: "3" } },
      })?.removed,
    ).toBe(false);
  });

  it("a judgement names the check, the dates and the evidence", () => {
    let ledger = emptyLedger();
    const items = (day: number, extra: Record<string, unknown>) =>
      [1, 2, 3].map((i) => alert(day * 10 + i, extra));
    // Four weeks of daily runs carrying louzhu, then a week without it.
    for (let day = 0; day < 28; day++)
      ledger = mergeLedgers(ledger, runOf(ledger, T0 + day * DAY, [feed(items(day, { louzhu: "x" }))]));
    expect(
      judgeLedger(ledger, "none", spec.versioning)
        .filter((j) => j.level === "failure")
        .map((j) => j.title),
    ).toEqual([]);
    // One run without it is never enough, whatever it holds; three days of answers are.
    ledger = mergeLedgers(
      ledger,
      runOf(ledger, T0 + 28 * DAY, [feed(items(28, {})), feed(items(28, {})), feed(items(28, {}))]),
    );
    expect(
      judgeLedger(ledger, "none", spec.versioning)
        .filter((j) => j.level === "failure")
        .map((j) => j.title),
    ).toEqual([]);
    ledger = mergeLedgers(ledger, runOf(ledger, T0 + 29 * DAY, [feed(items(29, {}))]));
    const removed = judgeLedger(ledger, "none", spec.versioning).filter(
      (j) => j.check === "ledger:field-removed",
    );
    expect(removed).toHaveLength(1);
    expect(removed[0]).toMatchObject({ level: "failure", path: "data[].louzhu", operation: "getFeed" });
    expect(removed[0]?.title).toContain(
      "always carried from 2026-01-05 to 2026-02-01, lacking since 2026-02-02",
    );
  });
});

describe("a changed type", () => {
  const days = (
    ledger: Ledger,
    from: number,
    count: number,
    extra: (day: number) => Record<string, unknown>,
  ) => {
    let out = ledger;
    for (let day = from; day < from + count; day++)
      out = mergeLedgers(out, runOf(out, T0 + day * DAY, [feed([alert(day, extra(day))])]));
    return out;
  };
  const changed = (ledger: Ledger) =>
    judgeLedger(ledger, "none", spec.versioning).filter((j) => j.check === "ledger:type-changed");

  it("comments sent as numbers for a week, then as strings: reported with both dates", () => {
    let ledger = days(emptyLedger(), 0, 7, () => ({ comments: 3 }));
    ledger = days(ledger, 7, 1, () => ({ comments: "3" }));
    // One answer of the new type is not yet a change.
    expect(changed(ledger)).toEqual([]);
    ledger = days(ledger, 8, 1, () => ({ comments: "3" }));
    const [j] = changed(ledger);
    expect(j).toMatchObject({
      level: "failure",
      path: "data[].comments",
      evidence: { was: "number", now: "string" },
    });
    expect(j?.title).toContain(
      "number seen 7 times up to 2026-01-11T08:00:00Z, string since 2026-01-12T08:00:00Z",
    );
  });

  it("a field that is sometimes null and sometimes a string is no change; integer and number are one type", () => {
    const ledger = days(emptyLedger(), 0, 14, (day) => ({
      louzhuregtime: day % 3 ? "2020-01-01" : null,
      price: day % 2 ? 5 : 5.5,
    }));
    expect(changed(ledger)).toEqual([]);
  });
});

describe("v1's retirement", () => {
  /** A ledger of version sightings: [prefix, alive | gone how, ISO day] in order. */
  function versions(sightings: [string, string, string][]): Ledger {
    let ledger = emptyLedger();
    for (const [prefix, seen, day] of sightings) {
      const r = new LedgerRecorder(ledger, day, () => Date.parse(`${day}T00:00:00Z`));
      r.version(prefix, seen === "alive" ? { alive: true } : { gone: seen });
      ledger = mergeLedgers(ledger, r.result());
    }
    return ledger;
  }
  const retired = (ledger: Ledger) =>
    judgeLedger(ledger, "none", spec.versioning)
      .filter((j) => j.check === "ledger:v1-retired-early")
      .map((j) => j.level);

  it.each([
    [
      "404 with no successor ever seen",
      [
        ["/api/v1", "alive", "2026-01-01"],
        ["/api/v1", "404", "2026-02-01"],
      ],
      ["failure"],
    ],
    [
      "refused with no other version answering: an outage as much as a retirement",
      [
        ["/api/v1", "alive", "2026-01-01"],
        ["/api/v1", "unreachable: ECONNREFUSED", "2026-02-01"],
      ],
      ["info"],
    ],
    [
      "refused while v2 answers",
      [
        ["/api/v1", "alive", "2026-01-01"],
        ["/api/v2", "alive", "2026-01-10"],
        ["/api/v1", "unreachable: ECONNREFUSED", "2026-02-01"],
        ["/api/v2", "alive", "2026-02-01"],
      ],
      ["failure"],
    ],
    [
      "redirected away 4 months after v2",
      [
        ["/api/v1", "alive", "2026-01-01"],
        ["/api/v2", "alive", "2026-01-10"],
        ["/api/v1", "301 redirect to /api/v2/meta", "2026-05-20"],
      ],
      ["failure"],
    ],
    [
      "gone 5 months after v2: a warning",
      [
        ["/api/v1", "alive", "2026-01-01"],
        ["/api/v2", "alive", "2026-01-10"],
        ["/api/v1", "404", "2026-06-20"],
      ],
      ["warning"],
    ],
    [
      "gone 6 months after v2: kept",
      [
        ["/api/v1", "alive", "2026-01-01"],
        ["/api/v2", "alive", "2026-01-10"],
        ["/api/v1", "404", "2026-07-10"],
      ],
      ["info"],
    ],
    [
      "served again after an outage",
      [
        ["/api/v1", "alive", "2026-01-01"],
        ["/api/v1", "404", "2026-02-01"],
        ["/api/v1", "alive", "2026-02-02"],
      ],
      [],
    ],
  ] as [string, [string, string, string][], string[]][])("%s", (_, sightings, levels) => {
    expect(retired(versions(sightings))).toEqual(levels);
  });
});
