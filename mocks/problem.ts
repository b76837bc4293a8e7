import type { ParamError } from "../src/spec/request.ts";
import type { Spec } from "../src/spec/spec.ts";

/** An RFC 9457 body built from the spec's x-problem-types catalogue. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: ParamError[];
}

/** The problem of catalogue entry `code`; `detail` overrides the catalogue's generic one. */
export function problem(spec: Spec, code: string, errors?: ParamError[], detail?: string): ProblemBody {
  const entry = spec.problemTypes[code];
  if (!entry) throw new Error(`x-problem-types has no ${code}`);
  const body: ProblemBody = {
    type: `/problems/${code}`,
    title: entry.title,
    status: entry.status,
    detail: detail ?? entry.detail,
  };
  if (errors && errors.length > 0) body.errors = errors;
  return body;
}

/** A detail line naming every offending parameter, so a log line alone says what was wrong. */
export function describeErrors(errors: ParamError[]): string {
  return errors.map((e) => `${e.name}: ${e.reason}`).join("; ");
}
