import { describe, expect, it } from "vitest";
import { bodyOf, injectTransport, specViolations, testApp } from "./test/helpers.ts";

/** A failure inside the server is a documented problem, never a stack trace or a bare 500. */
describe("internal errors", () => {
  it("answer /problems/internal with CORS and no details of the failure", async () => {
    const built = await testApp({ size: 200 });
    const send = injectTransport(built.app);
    built.db.close(); // every query now throws inside a handler
    const reply = await send("/api/v1/feed");
    await built.close();
    expect(reply.status).toBe(500);
    expect(bodyOf(reply)).toEqual({
      type: "/problems/internal",
      title: built.spec.problemTypes.internal?.title,
      status: 500,
      detail: built.spec.problemTypes.internal?.detail,
    });
    expect(reply.text).not.toMatch(/database|sqlite|at \w+ \(/i);
    expect(reply.headers["access-control-allow-origin"]).toBe("*");
    expect(specViolations(built.spec, "/nope", reply)).toEqual([]);
  });
});
