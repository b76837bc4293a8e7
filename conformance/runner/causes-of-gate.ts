/**
 * The cause behind request-gate's findings when something in front of the API answered its raw
 * requests: stated only with the answers that show it (an HTML page, an empty body, another
 * Server or Via than the API's own answers carry), one line each.
 */
import type { Violation } from "../types.ts";
import type { Candidate, CauseInput } from "./causes.ts";

const CHECK = "request-gate";

/** The signs the check saw that another component made the answer (its `received.answeredInFront`). */
const signsOf = (v: Violation): string[] => {
  const signs = (v.received as { answeredInFront?: unknown } | null)?.answeredInFront;
  return v.check === CHECK && Array.isArray(signs) ? signs.map(String) : [];
};

export function gateCauses(input: CauseInput): Candidate[] {
  const shown = input.violations.filter((v) => signsOf(v).length > 0);
  if (shown.length === 0) return [];
  const line = (v: Violation) => {
    const r = v.received as { status?: unknown; contentType?: unknown };
    return `${v.code.slice(CHECK.length + 1)}: ${String(r.status)} ${String(r.contentType ?? "no content type")}, ${signsOf(v).join("; ")}`;
  };
  // Who it is, when its answers say (their Server header): a name, not the evidence.
  const servers = [...new Set(shown.flatMap((v) => (v.answer?.server ? [v.answer.server] : [])))];
  const who = servers.length > 0 ? ` (Server: ${servers.join(", ")})` : "";
  return [
    {
      id: "another-component-gate",
      title: `Another component in front${who} answers requests the API would serve or refuse itself (${signsOf(shown[0] as Violation).join("; ")})`,
      evidence: shown.map(line),
      explains: (v) => signsOf(v).length > 0,
    },
  ];
}
