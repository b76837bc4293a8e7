import { LedgerError, readLedger } from "../../conformance/ledger/file.ts";
import type { Ledger } from "../../conformance/ledger/types.ts";
import { type AcceptEntry, AcceptListError } from "../../src/accept/list.ts";
import { acceptChanges, readAcceptedChanges } from "../../src/diff/accept.ts";
import { diffDocuments } from "../../src/diff/diff.ts";
import { FORMATS, type Format, format } from "../../src/diff/format/index.ts";
import { FAIL_ON, type FailOn, failsOn } from "../../src/diff/gate.ts";
import { type LoadedInput, loadInput } from "../../src/diff/load-input.ts";
import { formatObserved, observedRemovals } from "../../src/diff/observed.ts";
import { today } from "../../src/diff/versioning.ts";
import { InputError } from "../../src/errors/input-error.ts";
import { parseOptions, UsageError } from "../args.ts";

export const usage = `usage: dealkit diff BASE HEAD [--format text|markdown|json|github] [--fail-on breaking|warning|never]
                    [--accept FILE] [--successor-published YYYY-MM-DD] [--today YYYY-MM-DD]
                    [--observed LEDGER]

BASE and HEAD are files or git:REV:PATH (e.g. git:origin/main:openapi/openapi.yaml).
Within a major every change gets a rule id and a level (breaking, warning, info); across majors
(v1 → v2) the changes become migration notes and the v2 document is checked against the
versioning policy (paths under /api/v2, v1 announcements at least 6 months after v2).
--successor-published gives v2's publication date when the documents do not state it; --today
pins the day the 6-month rule and the --accept dates are judged on (default: today, UTC).
--accept FILE lists reviewed changes landed anyway (YAML or JSON: entries of rule, optionally
location and message, with reason and expires YYYY-MM-DD, the last day it holds). A finding an
entry matches is shown marked accepted and does not fail; an entry past its date fails the run
whatever it matches; an entry that matched nothing is noted so it can go.
--observed LEDGER reads the ledger dealkit conformance/watch/proxy/judge --ledger keep and says
which of the change's removed response fields (and statuses, operations) the deployment still
sends: a removal clients receive today breaks them now; one nobody was sent is on paper only.
Exit: 1 when a finding not accepted reaches --fail-on (default breaking) or an --accept entry has
expired (--fail-on never: always 0); 0 otherwise; 2 when BASE or HEAD is not an OpenAPI 3.1.x
document with paths (missing, unparsable, a $ref that does not resolve) or for a bad --accept file.
Rule ids and levels, the --accept format: src/diff/README.md.`;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    format: { type: "string", default: "text" },
    "fail-on": { type: "string", default: "breaking" },
    "successor-published": { type: "string" },
    today: { type: "string" },
    accept: { type: "string" },
    observed: { type: "string" },
  });
  if (positionals.length !== 2) throw new UsageError("give exactly two inputs, BASE and HEAD");
  const as = oneOf("format", values.format, FORMATS);
  const failOn = oneOf("fail-on", values["fail-on"], FAIL_ON);
  for (const key of ["successor-published", "today"] as const) {
    const v = values[key];
    if (v !== undefined && !DATE.test(v))
      throw new UsageError(`--${key} must be YYYY-MM-DD, got ${JSON.stringify(v)}`);
  }
  // Read before anything is compared: a bad list is a usage error, not a finding.
  const accepted = values.accept ? await readAccept(values.accept) : undefined;
  const observed = values.observed ? await readObserved(values.observed) : undefined;
  try {
    const [basePath, headPath] = positionals as [string, string];
    const [base, head] = await Promise.all([
      loadInput(basePath, undefined, "base"),
      loadInput(headPath, undefined, "head"),
    ]);
    const compared = await diffDocuments(base, head, {
      today: values.today,
      successorPublished: values["successor-published"],
    });
    const result = accepted ? acceptChanges(compared, accepted, today({ today: values.today })) : compared;
    const text = format(result, as as Format, { path: head.path, text: head.text });
    console.log(observed ? await withObserved(text, as as Format, base, head, observed) : text);
    return failsOn(result, failOn as FailOn) ? 1 : 0;
  } catch (err) {
    if (err instanceof InputError) {
      console.error(`dealkit diff: ${err.message}`);
      return 2;
    }
    throw err;
  }
}

async function readObserved(path: string): Promise<{ path: string; ledger: Ledger }> {
  try {
    const ledger = await readLedger(path);
    if (ledger.runs === 0) throw new UsageError(`--observed ${path}: no ledger there (or an empty one)`);
    return { path, ledger };
  } catch (err) {
    if (err instanceof LedgerError) throw new UsageError(err.message);
    throw err;
  }
}

/** The diff's output with what the ledger saw of its removals: one JSON document, or a section after. */
async function withObserved(
  text: string,
  as: Format,
  base: LoadedInput,
  head: LoadedInput,
  observed: { path: string; ledger: Ledger },
): Promise<string> {
  const removals = await observedRemovals(base.raw, head.raw, observed.ledger);
  const section = formatObserved(removals, as, observed.path, observed.ledger);
  if (as === "json") return JSON.stringify({ ...JSON.parse(text), observed: JSON.parse(section) }, null, 2);
  return `${text}\n\n${section}`;
}

async function readAccept(path: string): Promise<AcceptEntry[]> {
  try {
    return await readAcceptedChanges(path);
  } catch (err) {
    if (err instanceof AcceptListError) throw new UsageError(err.message);
    throw err;
  }
}

function oneOf<T extends readonly string[]>(name: string, value: string | undefined, allowed: T): T[number] {
  if (!allowed.includes(value as string)) {
    throw new UsageError(`--${name} must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`);
  }
  return value as T[number];
}
