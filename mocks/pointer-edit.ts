/** Writes and deletes at plain JSON pointers (no `*`), the edits the rule layer makes to a body. */

function split(pointer: string): { parent: string[]; key: string } | undefined {
  if (!pointer.startsWith("/")) return undefined;
  const tokens = pointer
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  const key = tokens.pop();
  return key === undefined ? undefined : { parent: tokens, key };
}

function walk(doc: unknown, tokens: string[], create: boolean): Record<string, unknown> | undefined {
  let node = doc as Record<string, unknown>;
  for (const token of tokens) {
    if (node === null || typeof node !== "object") return undefined;
    let next = node[token];
    if ((next === null || typeof next !== "object") && create) {
      next = {};
      node[token] = next;
    }
    node = next as Record<string, unknown>;
  }
  return node !== null && typeof node === "object" ? node : undefined;
}

/** Sets the value at `pointer`, creating missing parent objects. Returns the (same) document. */
export function setAt<T>(doc: T, pointer: string, value: unknown): T {
  if (pointer === "") return value as T;
  const at = split(pointer);
  const parent = at && walk(doc, at.parent, true);
  if (at && parent) parent[at.key] = value;
  return doc;
}

/** Deletes the member at `pointer` when it exists. Returns the (same) document. */
export function deleteAt<T>(doc: T, pointer: string): T {
  const at = split(pointer);
  const parent = at && walk(doc, at.parent, false);
  if (at && parent && !Array.isArray(parent)) delete parent[at.key];
  return doc;
}
