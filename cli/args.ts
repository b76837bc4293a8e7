import { type ParseArgsConfig, parseArgs } from "node:util";

/** A wrong command line: the CLI prints the message and the usage, and exits 2. */
export class UsageError extends Error {}

/** node:util parseArgs that reports unknown or malformed options as UsageError. */
export function parseOptions<T extends NonNullable<ParseArgsConfig["options"]>>(
  args: string[],
  options: T,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>> {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
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
