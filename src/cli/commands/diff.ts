import { diffDocuments } from "../../diff/diff.ts";
import { FORMATS, type Format, format } from "../../diff/format/index.ts";
import { FAIL_ON, type FailOn, failsOn } from "../../diff/gate.ts";
import { InputError, loadInput } from "../../diff/load-input.ts";
import { parseOptions, UsageError } from "../args.ts";

export const summary = "compare two versions of the spec: breaking changes, or v1 → v2 migration notes";
export const usage = `usage: dealkit diff BASE HEAD [--format text|markdown|json|github] [--fail-on breaking|warning|never]
                    [--successor-published YYYY-MM-DD] [--today YYYY-MM-DD]

BASE and HEAD are files or git:REV:PATH (e.g. git:origin/main:openapi/openapi.yaml).
Within a major every change gets a rule id and a level (breaking, warning, info); across majors
(v1 → v2) the changes become migration notes and the v2 document is checked against the
versioning policy (paths under /api/v2, v1 announcements at least 6 months after v2).
--successor-published gives v2's publication date when the documents do not state it.
Exit: 1 when a finding reaches --fail-on (default breaking), 0 otherwise, 2 for unreadable input.
Rule ids and levels: src/diff/README.md.`;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    format: { type: "string", default: "text" },
    "fail-on": { type: "string", default: "breaking" },
    "successor-published": { type: "string" },
    today: { type: "string" },
  });
  if (positionals.length !== 2) throw new UsageError("give exactly two inputs, BASE and HEAD");
  const as = oneOf("format", values.format, FORMATS);
  const failOn = oneOf("fail-on", values["fail-on"], FAIL_ON);
  for (const key of ["successor-published", "today"] as const) {
    const v = values[key];
    if (v !== undefined && !DATE.test(v))
      throw new UsageError(`--${key} must be YYYY-MM-DD, got ${JSON.stringify(v)}`);
  }
  try {
    const [base, head] = await Promise.all(positionals.map((p) => loadInput(p)));
    if (!base || !head) return 2;
    const result = await diffDocuments(base, head, {
      today: values.today,
      successorPublished: values["successor-published"],
    });
    console.log(format(result, as as Format, { path: head.path, text: head.text }));
    return failsOn(result, failOn as FailOn) ? 1 : 0;
  } catch (err) {
    if (err instanceof InputError) {
      console.error(`dealkit diff: ${err.message}`);
      return 2;
    }
    throw err;
  }
}

function oneOf<T extends readonly string[]>(name: string, value: string | undefined, allowed: T): T[number] {
  if (!allowed.includes(value as string)) {
    throw new UsageError(`--${name} must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`);
  }
  return value as T[number];
}
