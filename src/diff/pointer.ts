/**
 * Pointers: the diff walks the dereferenced documents (so a $ref change that changes nothing is
 * no finding) but reports where a change is written. `writtenAt` replays the walked tokens on
 * the document as written, jumping through every local $ref on the way.
 */

export function escapeToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function unescapeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

export function toPointer(tokens: readonly string[]): string {
  return tokens.map((t) => `/${escapeToken(t)}`).join("");
}

export function fromPointer(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/").map(unescapeToken);
}

function child(node: unknown, token: string): unknown {
  if (node === null || typeof node !== "object") return undefined;
  return (node as Record<string, unknown>)[token];
}

function localRef(node: unknown): string | undefined {
  const ref = child(node, "$ref");
  return typeof ref === "string" && ref.startsWith("#") ? decodeURIComponent(ref.slice(1)) : undefined;
}

/** The pointer, in the written document, of the node reached by these dereferenced tokens. */
export function writtenAt(raw: unknown, tokens: readonly string[]): string {
  let node = raw;
  let at: string[] = [];
  for (const token of tokens) {
    for (let ref = localRef(node), hops = 0; ref !== undefined && hops < 32; ref = localRef(node), hops++) {
      at = fromPointer(ref);
      node = at.reduce(child, raw);
    }
    node = child(node, token);
    at = [...at, token];
    if (node === undefined) break;
  }
  return toPointer(at);
}

/** The written node at these dereferenced tokens, without following a $ref at the last step. */
export function writtenNode(raw: unknown, tokens: readonly string[]): unknown {
  return fromPointer(writtenAt(raw, tokens)).reduce(child, raw);
}
