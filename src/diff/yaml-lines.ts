import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import { fromPointer } from "./pointer.ts";

/**
 * Maps JSON pointers to 1-based line numbers of a YAML (or JSON) text, so annotations land on
 * the line a reviewer changed. A pointer that does not resolve (a removal) maps to its deepest
 * existing ancestor.
 */
export function lineMapper(text: string): (pointer: string) => number | undefined {
  const counter = new LineCounter();
  const doc = parseDocument(text, { keepSourceTokens: true, lineCounter: counter });
  return (pointer) => {
    let node: unknown = doc.contents;
    let offset: number | undefined = (node as Node | null)?.range?.[0];
    for (const token of fromPointer(pointer)) {
      if (isMap(node)) {
        const pair = node.items.find(
          (p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === token,
        );
        if (!pair) break;
        offset = (pair.key as Node | null)?.range?.[0] ?? offset;
        node = pair.value;
      } else if (isSeq(node)) {
        const item = node.items[Number(token)] as Node | undefined;
        if (!item) break;
        offset = item.range?.[0] ?? offset;
        node = item;
      } else break;
    }
    return offset === undefined ? undefined : counter.linePos(offset).line;
  };
}
