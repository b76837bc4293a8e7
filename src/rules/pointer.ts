/** JSON pointers (RFC 6901) over parsed bodies, plus `*` (every array item or object value) and `@keys`. */

const MISSING = Symbol("missing");

/** The unescaped reference tokens of a JSON pointer (RFC 6901); "" is the whole document. */
export function tokens(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new Error(`not a JSON pointer: ${pointer}`);
  return pointer
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function step(value: unknown, token: string): unknown {
  if (value === null || typeof value !== "object") return MISSING;
  if (Array.isArray(value)) {
    const index = Number(token);
    return Number.isInteger(index) && index >= 0 && index < value.length ? value[index] : MISSING;
  }
  return Object.hasOwn(value, token) ? (value as Record<string, unknown>)[token] : MISSING;
}

function resolve(doc: unknown, pointer: string): unknown {
  let value: unknown = doc;
  for (const token of tokens(pointer)) {
    value = step(value, token);
    if (value === MISSING) break;
  }
  return value;
}

/** True when the pointer resolves to a value (null counts as present). */
export function has(doc: unknown, pointer: string): boolean {
  return resolve(doc, pointer) !== MISSING;
}

/** The value at the pointer, or undefined. */
export function get(doc: unknown, pointer: string): unknown {
  const value = resolve(doc, pointer);
  return value === MISSING ? undefined : value;
}

/** Every value the pointer reaches, expanding `*` and `@keys`; a pointer without them gives one value. */
export function collect(doc: unknown, pointer: string): unknown[] {
  let values: unknown[] = [doc];
  for (const token of tokens(pointer)) {
    const next: unknown[] = [];
    for (const value of values) {
      if (value === null || typeof value !== "object") continue;
      if (token === "*") next.push(...Object.values(value));
      else if (token === "@keys") next.push(...Object.keys(value));
      else {
        const v = step(value, token);
        if (v !== MISSING) next.push(v);
      }
    }
    values = next;
  }
  return values;
}

/** Appends a token to a pointer, escaping it. */
export function join(pointer: string, token: string | number): string {
  return `${pointer}/${String(token).replace(/~/g, "~0").replace(/\//g, "~1")}`;
}
