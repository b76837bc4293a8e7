import { type ParseArgsConfig, parseArgs } from "node:util";

/** A wrong command line: the CLI prints the message and the usage, and exits 2. */
export class UsageError extends Error {}

/** node:util parseArgs that reports unknown or malformed options as UsageError. */
export function parseOptions<T extends NonNullable<ParseArgsConfig["options"]>>(args: string[], options: T) {
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
