import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { same } from "./context.ts";
import { dereference } from "./dereference.ts";
import { spec } from "./testing.ts";

/** The in-house resolver must agree with swagger-parser, which the rest of the kit uses. */
describe("dereference", () => {
  it("resolves the spec exactly as swagger-parser does", async () => {
    const ours = await dereference(spec());
    const theirs = await SwaggerParser.dereference(spec() as never);
    expect(same(ours, theirs)).toBe(true);
  });

  it("keeps shared components shared and cycles cyclic", async () => {
    const d = spec();
    d.components.schemas.Alert.properties.related = {
      type: "array",
      items: { $ref: "#/components/schemas/Alert" },
    };
    const doc = (await dereference(d)) as ReturnType<typeof spec>;
    const alert = doc.components.schemas.Alert;
    expect(alert.properties.related.items).toBe(alert);
    expect(doc.components.schemas.RankResponse.properties.data.items).toBe(alert);
  });

  it.each([
    ["a ref that points nowhere", { $ref: "#/components/schemas/Nope" }, /points nowhere/],
    ["a ref to itself", { $ref: "#/components/schemas/Loop" }, /refers to itself/],
  ])("refuses %s", async (_, schema, message) => {
    const d = spec();
    d.components.schemas.Loop = { $ref: "#/components/schemas/Loop" };
    d.components.schemas.Alert.properties.bad = schema;
    await expect(dereference(d)).rejects.toThrow(message);
  });
});
