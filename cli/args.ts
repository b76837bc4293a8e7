import { type ParseArgsConfig, parseArgs } from "node:util";
import { didYouMean } from "./did-you-mean.ts";

/** A wrong command line: the CLI prints the message and the usage, and exits 2. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig["options"]>;
type OptionToken = Extract<NonNullable<ReturnType<typeof parseArgs>["tokens"]>[number], { kind: "option" }>;

/**
 * node:util parseArgs, its mistakes told in our words as a UsageError: an unknown option with the
 * nearest known one, a missing value, a value given to a switch. parseArgs' own messages quote
 * unevenly and call `--max-time -5` ambiguous; here a value that looks like a negative number is
 * the option's value, so the option's own check can say what range it takes.
 */
export function parseOptions<T extends Options>(
  args: string[],
  options: T,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>> {
  // Lenient parsing never throws and keeps every token; each is then judged below, so what is
  // returned is what strict parsing would return for a command line it accepts.
  const parsed = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true });
  for (const token of parsed.tokens) {
    const problem = token.kind === "option" ? optionProblem(token, options) : undefined;
    if (problem) throw new UsageError(problem);
  }
  return parsed as never;
}

const NEGATIVE_NUMBER = /^-[0-9.]/;

/** What is wrong with one option as given, in a sentence, or undefined. */
function optionProblem(token: OptionToken, options: Options): string | undefined {
  const spec = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
  if (!spec) return `unknown option ${token.rawName}${didYouMean(token.name, Object.keys(options), "--")}`;
  if (spec.type === "boolean")
    return token.value === undefined
      ? undefined
      : `${token.rawName} takes no value, got ${token.rawName}=${token.value}`;
  if (token.value === undefined) return `${token.rawName} needs a value`;
  // parseArgs takes the next word whatever it is: an option there means the value was left out.
  if (!token.inlineValue && token.value.startsWith("-") && !NEGATIVE_NUMBER.test(token.value))
    return `${token.rawName} needs a value, but ${token.value} follows it`;
  return undefined;
}

/** An integer option within bounds, or a UsageError naming it. */
export function intOption(
  name: string,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^-?[0-9]+$/.test(value) || n < min || n > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return n;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** A duration like `5s`, `500ms`, `2m` or plain seconds (`5`), in milliseconds, or a UsageError naming it. */
export function durationOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /^([0-9]+(?:\.[0-9]+)?)(ms|s|m)?$/.exec(value.trim());
  const ms = m ? Number(m[1]) * (UNITS[m[2] ?? "s"] ?? 1000) : Number.NaN;
  if (!(ms >= 100 && ms <= 3_600_000)) {
    throw new UsageError(
      `--${name} must be a duration from 100ms to 60m (e.g. 5s, 500ms, 2m), got ${JSON.stringify(value)}`,
    );
  }
  return ms;
}

/** Gives an option that may stand alone (`--live`) its default value, so parseArgs can read it as a string. */
export function withDefaultValue(args: string[], option: string, value: string): string[] {
  return args.flatMap((a, i) =>
    a === option && (i === args.length - 1 || args[i + 1]?.startsWith("--")) ? [a, value] : [a],
  );
}
