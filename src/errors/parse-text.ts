/**
 * Parsing a file a user hands the kit (a spec, a --known or --accept list, a ledger, a report): a
 * syntax error says where, as `FILE:LINE:COLUMN: reason` followed by the line with a caret under
 * the column, so it can be fixed without opening a validator.
 */
import { type ParseOptions, parse, YAMLParseError } from "yaml";
import { InputError } from "./input-error.ts";

/** A file whose text does not parse, located when the parser says where. */
export class ParseError extends InputError {
  constructor(
    readonly file: string,
    readonly at: { line: number; column: number } | undefined,
    readonly reason: string,
    readonly snippet: string,
  ) {
    super(`${file}${at ? `:${at.line}:${at.column}` : ""}: ${reason}${snippet ? `\n\n${snippet}` : ""}`);
  }
}

/**
 * YAML (or JSON: YAML 1.2 reads it) text as a value. yaml's own pretty error (prettyErrors, on
 * by default) is "reason at line L, column C:\n\nsnippet"; it is split there and its linePos kept.
 */
export function parseYamlText(text: string, file: string, options: ParseOptions = {}): unknown {
  try {
    return parse(text, { ...options, prettyErrors: true, maxAliasCount: -1 });
  } catch (err) {
    if (!(err instanceof YAMLParseError)) throw err;
    const at = err.linePos?.[0];
    const [reason = err.message, snippet = ""] = err.message.split(/ at line \d+, column \d+:\n\n/);
    throw new ParseError(file, at && { line: at.line, column: at.col }, reason.trim(), snippet.trimEnd());
  }
}

/**
 * JSON text as a value: JSON.parse (fast, and strict), and only when it fails the YAML parser,
 * for the line, column and snippet JSON.parse does not always give. Text YAML reads but JSON
 * does not (a trailing comma, a missing value) is located by JSON.parse's own "position N" when
 * it says one; its copy of the text is never repeated.
 */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (jsonError) {
    parseYamlText(text, file);
    const message = (jsonError as Error).message;
    const reason = message.replace(/ in JSON at position.*$/s, "").replace(/, ".*" is not valid JSON$/s, "");
    const position = /at position (\d+)/.exec(message)?.[1];
    if (position === undefined) throw new ParseError(file, undefined, `not JSON: ${reason}`, "");
    const before = text.slice(0, Number(position)).split("\n");
    const at = { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
    const shown = `${text.split("\n")[at.line - 1] ?? ""}\n${" ".repeat(at.column - 1)}^`;
    throw new ParseError(file, at, reason, shown);
  }
}
