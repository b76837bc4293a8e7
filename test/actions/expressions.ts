/**
 * The part of GitHub's expression language our action.yml files use, evaluated the way the
 * runner does: `${{ ... }}` substitution in strings, and `if:` conditions (with or without
 * `${{ }}`). Context paths (`inputs.x`, `steps.run.outputs.exit-code`, `github.action_path`,
 * `runner.temp`), string literals, `==`, `!=`, `&&`, `||`, `!`, parentheses, and the status
 * functions. Anything else throws, so an action that starts using more fails its test instead of
 * being half-evaluated.
 */

export type Context = Record<string, unknown>;
export interface Status {
  failed: boolean;
}

type Token = { kind: "op" | "str" | "path" | "call"; text: string };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const re = /\s*(?:(==|!=|&&|\|\||!|\(|\))|'((?:[^']|'')*)'|([a-z]+)\(\)|([A-Za-z_][\w.-]*))/y;
  let at = 0;
  while (source.slice(at).trim() !== "") {
    re.lastIndex = at;
    const m = re.exec(source);
    if (!m) throw new Error(`expression not understood at "${source.slice(at)}" in: ${source}`);
    if (m[1]) tokens.push({ kind: "op", text: m[1] });
    else if (m[2] !== undefined) tokens.push({ kind: "str", text: m[2].replaceAll("''", "'") });
    else if (m[3]) tokens.push({ kind: "call", text: m[3] });
    else if (m[4]) tokens.push({ kind: "path", text: m[4] });
    at = re.lastIndex;
  }
  return tokens;
}

function lookup(context: Context, path: string): string {
  const parts = path.split(".");
  let value: unknown = context;
  for (const [i, part] of parts.entries()) {
    // Below a known context, a missing property is '' as on GitHub (an output a step never set).
    if (value === undefined || value === null || typeof value !== "object") return "";
    value = (value as Record<string, unknown>)[part];
    // An unknown top-level context is a mistake; an unset output or input is '' as on GitHub.
    if (value === undefined && i === 0) throw new Error(`unknown context ${part} in ${path}`);
  }
  return value === undefined || value === null ? "" : String(value);
}

/** Evaluates one expression (the text inside `${{ }}` or an `if:`) to a string or boolean. */
export function evaluate(
  source: string,
  context: Context,
  status: Status = { failed: false },
): string | boolean {
  const tokens = tokenize(source);
  let pos = 0;
  const peek = () => tokens[pos];
  const take = () => {
    const t = tokens[pos++];
    if (!t) throw new Error(`expression ends early: ${source}`);
    return t;
  };
  const truthy = (v: string | boolean) => (typeof v === "boolean" ? v : v !== "");
  const primary = (): string | boolean => {
    const t = take();
    if (t.kind === "op" && t.text === "!") return !truthy(primary());
    if (t.kind === "op" && t.text === "(") {
      const v = or();
      if (take().text !== ")") throw new Error(`missing ) in ${source}`);
      return v;
    }
    if (t.kind === "str") return t.text;
    if (t.kind === "path") return lookup(context, t.text);
    if (t.kind === "call") {
      if (t.text === "always") return true;
      if (t.text === "success") return !status.failed;
      if (t.text === "failure") return status.failed;
      if (t.text === "cancelled") return false;
    }
    throw new Error(`not supported: ${t.text} in ${source}`);
  };
  const comparison = (): string | boolean => {
    const left = primary();
    const op = peek();
    if (op?.kind === "op" && (op.text === "==" || op.text === "!=")) {
      take();
      const right = primary();
      // GitHub compares strings case-insensitively.
      const equal = String(left).toLowerCase() === String(right).toLowerCase();
      return op.text === "==" ? equal : !equal;
    }
    return left;
  };
  const and = (): string | boolean => {
    let v = comparison();
    while (peek()?.text === "&&") {
      take();
      const r = comparison();
      v = truthy(v) ? r : v;
    }
    return v;
  };
  const or = (): string | boolean => {
    let v = and();
    while (peek()?.text === "||") {
      take();
      const r = and();
      v = truthy(v) ? v : r;
    }
    return v;
  };
  const value = or();
  if (pos !== tokens.length) throw new Error(`unexpected ${peek()?.text} in ${source}`);
  return value;
}

/** Replaces every `${{ expr }}` in a string. */
export function substitute(text: string, context: Context): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expr: string) => String(evaluate(expr, context)));
}

/**
 * An `if:` condition: evaluated with `success()` implied unless it calls a status function,
 * as GitHub does.
 */
export function condition(source: string | undefined, context: Context, status: Status): boolean {
  if (source === undefined) return !status.failed;
  const expr = source.trim().replace(/^\$\{\{([\s\S]*)\}\}$/, "$1");
  const value = evaluate(expr, context, status);
  const holds = typeof value === "boolean" ? value : value !== "";
  return /\b(always|success|failure|cancelled)\(\)/.test(expr) ? holds : holds && !status.failed;
}
