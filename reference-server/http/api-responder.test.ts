/**
 * The responder's kept answers follow the data: with the clock fixed (one second throughout), only
 * the data state can tell a kept answer from a new one, whether the request came through the fast
 * lane (a socket: Store.servingStamp, read again after an announced write or once
 * OTHER_COMMITS_CHECK_MS have passed) or through Fastify (app.inject, read every time).
 */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHER_COMMITS_CHECK_MS } from "../db/store.ts";
import type { BuiltApp } from "../index.ts";
import {
  bodyOf,
  injectTransport,
  NOW_MS,
  socketTransport,
  type Transport,
  testApp,
} from "../test/helpers.ts";

let built: BuiltApp;
let overSocket: Transport;

// The server's clock: fixed, but for the test that lets the check interval pass.
let clockMs = NOW_MS;

beforeAll(async () => {
  built = await testApp({ now: () => clockMs });
  await built.app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = built.app.server.address() as AddressInfo;
  overSocket = socketTransport(`http://127.0.0.1:${port}`);
});

afterAll(async () => {
  await built?.close();
});

const FEED = "/api/v1/feed?limit=1";
const newest = async (transport: Transport) => {
  const reply = await transport(FEED);
  expect(reply.status).toBe(200);
  return (bodyOf(reply) as { data: { id: number; comments: number }[] }).data[0] as {
    id: number;
    comments: number;
  };
};
const comment = (id: number) =>
  built.db.prepare("UPDATE alerts SET comments = comments + 1 WHERE id = ?").run(id);
// A write as the server's own timers make them (live arrivals, the freshness shift): announced.
const commentInTimer = (id: number) =>
  new Promise<void>((resolve) =>
    setTimeout(() => {
      comment(id);
      built.store.announceWrite();
      resolve();
    }, 5),
  );

describe("API responder: kept answers and the data state", () => {
  it("answers the fast lane's next request after an announced write from the new data", async () => {
    const before = await newest(overSocket);
    expect(await newest(overSocket)).toEqual(before);
    await commentInTimer(before.id);
    expect(await newest(overSocket)).toEqual({ ...before, comments: before.comments + 1 });
  });

  it("answers the fast lane from a write nobody announced once the check interval has passed", async () => {
    const before = await newest(overSocket);
    comment(before.id);
    expect(await newest(overSocket)).toEqual(before);
    clockMs += OTHER_COMMITS_CHECK_MS;
    // Within the same second, so the kept answer is not dropped for its age.
    expect(Math.floor(clockMs / 1000)).toBe(Math.floor(NOW_MS / 1000));
    expect(await newest(overSocket)).toEqual({ ...before, comments: before.comments + 1 });
  });

  it("answers an injected request from the new data even without a turn in between", async () => {
    const inject = injectTransport(built.app);
    const before = await newest(inject);
    comment(before.id);
    expect(await newest(inject)).toEqual({ ...before, comments: before.comments + 1 });
  });
});
