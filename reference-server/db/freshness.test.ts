import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importAlerts } from "../import.ts";
import { injectTransport, NOW_MS, testApp } from "../test/helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "dealkit-fresh-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Rank = {
  data: { id: number; shijianchuo: number; datetime: string }[];
  meta: { window: { from: number } };
};

/** A database on disk ages; generated data is moved forward, imported data is left alone. */
describe("stale data on disk", () => {
  it("shifts generated data forward on a later start, keeping ids, so the one-hour window is not empty", async () => {
    const dbPath = join(dir, "gen.db");
    const first = await testApp({ dbPath, size: 800 });
    const before = JSON.parse(
      (await injectTransport(first.app)("/api/v1/rank?act=yixiaoshi&limit=300")).text,
    ) as Rank;
    expect(first.data).toBe("generated");
    await first.close();

    const threeDaysLater = NOW_MS + 3 * 86_400_000;
    const second = await testApp({ dbPath, size: 800, now: () => threeDaysLater });
    expect(second.data).toBe("shifted");
    const after = JSON.parse(
      (await injectTransport(second.app)("/api/v1/rank?act=yixiaoshi&limit=300")).text,
    ) as Rank;
    await second.close();
    expect(after.data.map((a) => a.id)).toEqual(before.data.map((a) => a.id));
    expect(after.data.map((a) => a.shijianchuo)).toEqual(before.data.map((a) => a.shijianchuo + 3 * 86_400));
    expect(after.data[0]?.datetime).not.toBe(before.data[0]?.datetime);

    const third = await testApp({ dbPath, size: 900, now: () => threeDaysLater });
    expect(third.data).toBe("regenerated");
    await third.close();
  });

  it("never shifts or regenerates imported data", async () => {
    const dbPath = join(dir, "imported.db");
    const file = join(dir, "push.json");
    const t = NOW_MS / 1000 - 600;
    writeFileSync(
      file,
      JSON.stringify([
        {
          id: 7,
          title: "招商银行 饭票 10元",
          content: "",
          shijianchuo: t,
          cateid: "16",
          comments: "3",
          url: "/zuankeba/7.html",
        },
      ]),
    );
    const report = await importAlerts(file, dbPath);
    expect(report.alerts).toBe(1);
    const later = await testApp({ dbPath, now: () => NOW_MS + 86_400_000 });
    expect(later.data).toBe("kept");
    const body = JSON.parse((await injectTransport(later.app)("/api/v1/feed")).text) as Rank;
    await later.close();
    expect(body.data.map((a) => [a.id, a.shijianchuo])).toEqual([[7, t]]);
  });
});
