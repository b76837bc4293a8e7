import { describe, expect, it } from "vitest";
import { diffDocuments } from "./diff.ts";
import { type Doc, diffEdit, param, rulesOf, schema, spec, TODAY, without } from "./testing.ts";

type Case = [string, { given: (d: Doc) => void; want: string[] }];

/**
 * The current spec's date pattern (Alert.datetime), read rather than copied, so the pattern edits
 * below keep their meaning across spec releases: a rewrite in the same language, a narrowing, a
 * widening by an optional time.
 */
const DATE_PATTERN: string = schema(spec(), "Alert").properties.datetime.pattern;
const sameLanguage = (p: string) => p.replaceAll("[0-9]", "\\d");
const narrowedTo20xx = (p: string) => p.replace("^[0-9]{4}", "^20[0-9]{2}");
const withOptionalTime = (p: string) => p.replace(/\$$/, "(T[0-2][0-9]:[0-5][0-9])?$");
for (const edit of [sameLanguage, narrowedTo20xx, withOptionalTime]) {
  // An edit that no longer changes the pattern would make its case pass for the wrong reason.
  if (edit(DATE_PATTERN) === DATE_PATTERN) throw new Error(`${edit.name} leaves ${DATE_PATTERN} as it is`);
}

/** Response schemas: widening what clients read breaks them; narrowing it does not. */
// biome-ignore format: a table reads best one case per line
const responses: Case[] = [
  ["field removed", { given: (d) => { delete schema(d, "Alert").properties.yuanurl; schema(d, "Alert").required = without(schema(d, "Alert").required, "yuanurl"); }, want: ["response-field-removed"] }],
  ["optional field removed", { given: (d) => delete schema(d, "Alert").properties.content, want: ["response-field-removed"] }],
  ["field removed from a nested object", { given: (d) => { const w = schema(d, "RankResponse").properties.meta.properties.window; delete w.properties.timezone; w.required = without(w.required, "timezone"); }, want: ["response-field-removed"] }],
  ["field removed from array items", { given: (d) => { delete schema(d, "Activity").properties.h5; schema(d, "Activity").required = without(schema(d, "Activity").required, "h5"); }, want: ["response-field-removed"] }],
  ["field removed inside a oneOf branch", { given: (d) => { delete schema(d, "ZdmItem").properties.mall_name; schema(d, "ZdmItem").required = without(schema(d, "ZdmItem").required, "mall_name"); }, want: ["response-field-removed"] }],
  ["oneOf branch removed", { given: (d) => schema(d, "FeedResponse").properties.data.items.oneOf.pop(), want: ["response-schema-branch-removed"] }],
  ["oneOf branch added", { given: (d) => schema(d, "FeedResponse").properties.data.items.oneOf.push({ $ref: "#/components/schemas/Activity" }), want: ["response-schema-branch-added"] }],
  ["field became optional", { given: (d) => { schema(d, "Alert").required = without(schema(d, "Alert").required, "title"); }, want: ["response-field-became-optional"] }],
  ["field became nullable", { given: (d) => { schema(d, "Alert").properties.catename.type = ["string", "null"]; }, want: ["response-field-became-nullable"] }],
  ["type changed integer → string", { given: (d) => { schema(d, "Alert").properties.comments.type = "string"; }, want: ["response-type-changed"] }],
  ["type widened integer → number", { given: (d) => { schema(d, "Alert").properties.comments.type = "number"; }, want: ["response-type-changed"] }],
  ["type constraint dropped", { given: (d) => delete schema(d, "Alert").properties.comments.type, want: ["response-type-changed"] }],
  ["type narrowed number → integer", { given: (d) => { schema(d, "Alert").properties.price.type = "integer"; }, want: ["response-type-narrowed"] }],
  ["nullable dropped", { given: (d) => { schema(d, "Alert").properties.yuanurl.type = "string"; }, want: ["response-type-narrowed"] }],
  ["optional field added", { given: (d) => { schema(d, "Alert").properties.hot = { type: "boolean" }; }, want: ["response-field-added"] }],
  ["required field added", { given: (d) => { schema(d, "Activity").properties.city = { type: "string" }; schema(d, "Activity").required.push("city"); }, want: ["response-field-added"] }],
  ["optional field became required", { given: (d) => schema(d, "Alert").required.push("content"), want: ["response-field-became-required"] }],
  // A const is hardcoded by clients and routes the feed's items (ZdmItem.type): one more value is breaking, not a warning.
  ["const widened to an enum", { given: (d) => { schema(d, "PriceScope").properties.unit = { type: "string", enum: ["CNY", "USD"] }; }, want: ["response-const-widened"] }],
  ["discriminator const widened to an enum", { given: (d) => { schema(d, "ZdmItem").properties.type = { type: "string", enum: ["smzdm", "post"] }; }, want: ["response-const-widened"] }],
  ["discriminator const dropped", { given: (d) => delete schema(d, "ZdmItem").properties.type.const, want: ["response-const-widened"] }],
  ["enum value added (a list clients already switch on)", { given: (d) => schema(d, "Problem").properties.errors.items.properties.in.enum.push("cookie"), want: ["response-enum-value-added"] }],
  ["enum value removed", { given: (d) => { schema(d, "Problem").properties.errors.items.properties.in.enum = ["query", "path"]; }, want: ["response-enum-value-removed"] }],
  ["maxItems raised", { given: (d) => { schema(d, "RankResponse").properties.data.maxItems = 500; }, want: ["response-bound-widened"] }],
  ["minimum removed", { given: (d) => delete schema(d, "Alert").properties.comments.minimum, want: ["response-bound-widened"] }],
  ["maxItems lowered", { given: (d) => { schema(d, "RankResponse").properties.data.maxItems = 200; }, want: ["response-bound-narrowed"] }],
  ["minLength raised", { given: (d) => { schema(d, "Alert").properties.title.minLength = 5; }, want: ["response-bound-narrowed"] }],
  ["pattern removed", { given: (d) => delete schema(d, "Activity").properties.h5.pattern, want: ["response-pattern-widened"] }],
  ["pattern widened", { given: (d) => { schema(d, "Activity").properties.h5.pattern = "^https?://"; }, want: ["response-pattern-widened"] }],
  ["pattern widened, shown by a string drawn from the new pattern", { given: (d) => { schema(d, "Alert").properties.datetime.pattern = withOptionalTime(DATE_PATTERN); }, want: ["response-pattern-widened"] }],
  ["pattern unanchored at its end", { given: (d) => { schema(d, "Problem").properties.type.pattern = "^/problems/[a-z-]+"; }, want: ["response-pattern-widened"] }],
  ["pattern rewritten, same language (unprovable: a warning)", { given: (d) => { schema(d, "Alert").properties.datetime.pattern = sameLanguage(DATE_PATTERN); }, want: ["pattern-changed"] }],
  ["pattern narrowed", { given: (d) => { schema(d, "Alert").properties.datetime.pattern = narrowedTo20xx(DATE_PATTERN); }, want: ["response-pattern-narrowed"] }],
  ["const changed", { given: (d) => { schema(d, "ZdmItem").properties.type.const = "zdm"; }, want: ["response-enum-value-changed"] }],
  ["enum value renamed", { given: (d) => { schema(d, "Problem").properties.errors.items.properties.in.enum = ["query", "path", "headers"]; }, want: ["response-enum-value-changed"] }],
  // Problem.instance has no format yet: RFC 9457 makes it a URI reference.
  ["format added", { given: (d) => { schema(d, "Problem").properties.instance.format = "uri-reference"; }, want: ["response-format-narrowed"] }],
  ["format changed", { given: (d) => { schema(d, "Alert").properties.url.format = "uri-reference"; }, want: ["response-format-widened"] }],
  ["pattern added", { given: (d) => { schema(d, "Alert").properties.catename.pattern = "^.+$"; }, want: ["response-pattern-narrowed"] }],
  ["format removed", { given: (d) => delete schema(d, "Alert").properties.url.format, want: ["response-format-widened"] }],
  ["description changed", { given: (d) => { schema(d, "Alert").properties.title.description = "The title."; }, want: ["documentation-changed"] }],
  ["example changed", { given: (d) => { d.components.examples.RankOneHour.value.data[0].title = "另一个标题"; }, want: ["documentation-changed"] }],
  ["schema moved behind a $ref (no change)", { given: (d) => { d.components.schemas.Tag = { type: "string" }; schema(d, "Alert").properties.tags.items = { $ref: "#/components/schemas/Tag" }; }, want: [] }],
  ["recursive field added", { given: (d) => { schema(d, "Alert").properties.related = { type: "array", items: { $ref: "#/components/schemas/Alert" } }; }, want: ["response-field-added"] }],
  ["nothing changed", { given: () => {}, want: [] }],
];

describe("response schemas", () => {
  it.each(responses)("%s", async (_, { given, want }) => {
    expect(rulesOf(await diffEdit(given))).toEqual([...want].sort());
  });
});

describe("recursive schemas", () => {
  it("compares cyclic documents without looping", async () => {
    const { diffDocuments } = await import("./diff.ts");
    const { spec } = await import("./testing.ts");
    const recursive = () => {
      const d = spec();
      schema(d, "Alert").properties.related = {
        type: "array",
        items: { $ref: "#/components/schemas/Alert" },
      };
      return d;
    };
    const head = recursive();
    delete schema(head, "Alert").properties.yuanurl;
    schema(head, "Alert").required = without(schema(head, "Alert").required, "yuanurl");
    const r = await diffDocuments({ label: "b", raw: recursive() }, { label: "h", raw: head });
    expect(rulesOf(r)).toEqual(["response-field-removed"]);
  });
});

describe("pointers", () => {
  it("points into the document as written, at the component the change is in", async () => {
    const r = await diffEdit((d) => delete schema(d, "Alert").properties.content);
    const f = r.findings.find((x) => x.location.operation === "GET /api/v1/rank");
    expect(f?.location).toEqual({
      operation: "GET /api/v1/rank",
      pointer: "/components/schemas/Alert/properties/content",
      in: "base",
    });
    expect(f?.message).toBe("200 application/json body data[].content removed");
  });

  it("reports a change once per operation that uses the component", async () => {
    const r = await diffEdit((d) => delete schema(d, "Alert").properties.content);
    expect(r.findings.map((f) => f.location.operation)).toEqual([
      "GET /api/v1/rank",
      "GET /api/v1/feed",
      "GET /api/v1/search",
      "GET /api/v1/my/follow",
      "GET /api/v1/my/push",
      "GET /plus/json/rank/{act}.json",
    ]);
  });
});

/** oneOf ⇄ anyOf: the branches are compared as one list; the move is judged by direction. */
describe("oneOf and anyOf swapped", () => {
  const feedItems = (d: Doc) => schema(d, "FeedResponse").properties.data.items;
  const feedLimit = (d: Doc) => param(d, "FeedLimit");
  /** Renames the composition keyword of a schema, keeping its branches. */
  const rename = (s: Doc, from: string, to: string) => {
    s[to] = s[from];
    delete s[from];
  };
  /** A request schema with two shapes: a number of items, or the word "max". */
  const composedLimit = (d: Doc, key: string) => {
    feedLimit(d).schema = {
      [key]: [
        { type: "integer", minimum: 1, maximum: 50 },
        { type: "string", enum: ["max"] },
      ],
    };
  };
  const diff = async (editBase: (d: Doc) => void, editHead: (d: Doc) => void) => {
    const base = spec();
    const head = spec();
    editBase(base);
    editHead(head);
    return rulesOf(
      await diffDocuments({ label: "base", raw: base }, { label: "head", raw: head }, { today: TODAY }),
    );
  };

  it("response oneOf → anyOf: a value may match two shapes (warning), no branch added or removed", async () => {
    const r = await diffEdit((d) => rename(feedItems(d), "oneOf", "anyOf"));
    expect(rulesOf(r)).toEqual(["response-schema-oneof-to-anyof"]);
    expect(r.findings[0]?.location.pointer).toBe(
      "/components/schemas/FeedResponse/properties/data/items/anyOf",
    );
  });

  it("response anyOf → oneOf, with a branch changed inside: both reported", async () => {
    const rules = await diff(
      (d) => rename(feedItems(d), "oneOf", "anyOf"),
      (d) => delete schema(d, "ZdmItem").properties.brand,
    );
    expect(rules).toEqual(["response-field-removed", "response-schema-anyof-to-oneof"]);
  });

  // Scalar branches are compared as the sets of values they admit (value-sets.ts): only a value
  // matching both shapes tells oneOf from anyOf.
  const overlappingLimit = (d: Doc, key: string) => {
    feedLimit(d).schema = {
      [key]: [
        { type: "integer", minimum: 1, maximum: 50 },
        { type: "integer", minimum: 40, maximum: 100 },
      ],
    };
  };

  it.each([
    [
      "overlapping anyOf → oneOf refuses the shared values",
      overlappingLimit,
      "anyOf",
      "oneOf",
      ["request-values-narrowed"],
    ],
    [
      "overlapping oneOf → anyOf accepts them again",
      overlappingLimit,
      "oneOf",
      "anyOf",
      ["request-values-widened"],
    ],
    ["disjoint anyOf → oneOf refuses nothing", composedLimit, "anyOf", "oneOf", []],
  ] as const)("request %s", async (_, shape, from, to, want) => {
    expect(
      await diff(
        (d) => shape(d, from),
        (d) => shape(d, to),
      ),
    ).toEqual(want);
  });
});

/** The blind spots of issue 23, by level: what a client of v1 meets, not only which rule fires. */
describe("levels of response widenings", () => {
  const levelOf = async (edit: (d: Doc) => void) => {
    const r = await diffEdit(edit);
    return [...new Set(r.findings.map((f) => `${f.rule} ${f.level}`))];
  };

  it("a discriminator's const widened to an enum is breaking", async () => {
    const levels = await levelOf((d) => {
      schema(d, "ZdmItem").properties.type = { type: "string", enum: ["smzdm", "post"] };
    });
    expect(levels).toEqual(["response-const-widened breaking"]);
  });

  it("a new oneOf branch in a response item is breaking", async () => {
    const levels = await levelOf((d) =>
      schema(d, "FeedResponse").properties.data.items.oneOf.push({ $ref: "#/components/schemas/Activity" }),
    );
    expect(levels).toEqual(["response-schema-branch-added breaking"]);
  });

  it("a response pattern widened is breaking and names a string the old pattern refused", async () => {
    const r = await diffEdit((d) => {
      schema(d, "Alert").properties.datetime.pattern = withOptionalTime(DATE_PATTERN);
    });
    const f = r.findings[0];
    expect([f?.rule, f?.level]).toEqual(["response-pattern-widened", "breaking"]);
    const witness = JSON.parse(/: ("[^"]*") now matches$/.exec(f?.message ?? "")?.[1] ?? "null");
    expect(typeof witness).toBe("string");
    expect(new RegExp(DATE_PATTERN, "u").test(witness)).toBe(false);
  });

  it("a response pattern change no string decides stays a warning for a reviewer", async () => {
    const levels = await levelOf((d) => {
      schema(d, "Alert").properties.datetime.pattern = sameLanguage(DATE_PATTERN);
    });
    expect(levels).toEqual(["pattern-changed warning"]);
  });
});
