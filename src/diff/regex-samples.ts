/**
 * Strings a regular expression accepts, drawn from the pattern itself: the witnesses that tell a
 * widened pattern from a narrowed one (patterns.ts). A fixed pool of strings only finds a
 * widening when the pool happens to hold a string of the new shape ("^\d{4}-\d{2}-\d{2}$" grown
 * to also take a time); a string generated from the new pattern and refused by the old one
 * proves it directly. Draws are seeded, so a diff is the same on every run; every candidate is
 * checked against both compiled patterns afterwards, so this generator may be rough: a wrong
 * sample is only a wasted try, never a false finding.
 *
 * Covers literals, escapes (\d \w \s and their negations, escaped characters), classes with
 * ranges and negation, `.`, groups (capturing, `(?:`), alternation and quantifiers (`? * + {m,n}`,
 * lazy or not). Anything else (look-around, back-references, named groups, \p{..}) makes the
 * pattern unsampled: undefined, and the caller falls back to its fixed pool.
 */

type Node =
  | { kind: "alt"; options: Node[][] }
  | { kind: "chars"; pick: string[] }
  | { kind: "repeat"; node: Node; min: number; max: number };

const DIGITS = [..."0123456789"];
const WORD = [..."abcxyzABCXYZ0189_"];
const SPACE = [" ", "\t", "\n"];
/** Characters a negated class or `.` draws from: one of each kind the positive classes use. */
const ANY = [..."aZ09_-./:~%+#@ \t?&=中é", "\u0000"];

class Unsupported extends Error {}

/** Up to `count` strings the pattern accepts, or undefined when its syntax is beyond this sampler. */
export function samplePattern(pattern: string, count: number, seed = 1): string[] | undefined {
  let tree: Node;
  try {
    tree = new Parser(pattern).parse();
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
  const random = mulberry32(seed);
  const out = new Set<string>();
  // The shortest string first: each quantifier at its minimum, each choice the first.
  out.add(generate(tree, () => 0, "min"));
  for (let i = 0; out.size < count && i < count * 4; i++) out.add(generate(tree, random, "random"));
  return [...out];
}

function generate(node: Node, random: () => number, mode: "min" | "random"): string {
  const pick = <T>(xs: T[]): T => xs[mode === "min" ? 0 : Math.floor(random() * xs.length)] as T;
  switch (node.kind) {
    case "chars":
      return pick(node.pick);
    case "alt":
      return pick(node.options)
        .map((n) => generate(n, random, mode))
        .join("");
    case "repeat": {
      // A few more than the minimum, and sometimes the maximum itself: bounds are where patterns differ.
      const cap = Math.min(node.max, node.min + 4);
      let n = node.min;
      if (mode === "random") {
        const r = random();
        n =
          r < 0.15 && Number.isFinite(node.max)
            ? node.max
            : node.min + Math.floor(random() * (cap - node.min + 1));
        if (node.max > 64 && n > node.min + 4) n = node.min + 4;
      }
      let s = "";
      for (let i = 0; i < n; i++) s += generate(node.node, random, mode);
      return s;
    }
  }
}

/** A recursive-descent parser for the subset above; anchors are dropped (samples are whole strings). */
class Parser {
  private i = 0;
  constructor(private readonly src: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.i < this.src.length) throw new Unsupported(`unexpected ${this.src[this.i]}`);
    return node;
  }

  private alternation(): Node {
    const options: Node[][] = [this.sequence()];
    while (this.src[this.i] === "|") {
      this.i++;
      options.push(this.sequence());
    }
    return { kind: "alt", options };
  }

  private sequence(): Node[] {
    const items: Node[] = [];
    while (this.i < this.src.length && this.src[this.i] !== "|" && this.src[this.i] !== ")") {
      const atom = this.atom();
      if (atom) items.push(this.quantified(atom));
    }
    return items;
  }

  private atom(): Node | undefined {
    const c = this.src[this.i++] as string;
    if (c === "^" || c === "$") return undefined;
    if (c === ".") return { kind: "chars", pick: ANY.filter((x) => x !== "\n") };
    if (c === "[") return this.charClass();
    if (c === "(") {
      if (this.src[this.i] === "?") {
        if (this.src[this.i + 1] !== ":") throw new Unsupported("look-around or named group");
        this.i += 2;
      }
      const inner = this.alternation();
      if (this.src[this.i++] !== ")") throw new Unsupported("unclosed group");
      return inner;
    }
    if (c === "\\") return { kind: "chars", pick: this.escape() };
    if ("*+?{".includes(c)) throw new Unsupported("quantifier without an atom");
    return { kind: "chars", pick: [c] };
  }

  /** The characters an escape stands for (outside or inside a class). */
  private escape(): string[] {
    const e = this.src[this.i++];
    if (e === undefined) throw new Unsupported("trailing backslash");
    const classes: Record<string, string[]> = {
      d: DIGITS,
      w: WORD,
      s: SPACE,
      D: ANY.filter((x) => !/\d/.test(x)),
      W: ANY.filter((x) => !/\w/.test(x)),
      S: ANY.filter((x) => !/\s/.test(x)),
    };
    if (classes[e]) return classes[e];
    if (e === "t") return ["\t"];
    if (e === "n") return ["\n"];
    if (e === "r") return ["\r"];
    if (e === "u" && /^[0-9a-fA-F]{4}$/.test(this.src.slice(this.i, this.i + 4))) {
      const code = Number.parseInt(this.src.slice(this.i, this.i + 4), 16);
      this.i += 4;
      return [String.fromCharCode(code)];
    }
    if (/[0-9a-zA-Z]/.test(e)) throw new Unsupported(`escape \\${e}`);
    return [e];
  }

  private charClass(): Node {
    const start = this.i - 1;
    const negated = this.src[this.i] === "^";
    if (negated) this.i++;
    const members: string[] = [];
    let first = true;
    while (this.i < this.src.length && (this.src[this.i] !== "]" || first)) {
      first = false;
      const from = this.classChar();
      if (this.src[this.i] === "-" && this.src[this.i + 1] !== "]" && this.i + 1 < this.src.length) {
        this.i++;
        const to = this.classChar();
        if (from.length !== 1 || to.length !== 1) throw new Unsupported("range of a class escape");
        members.push(...rangeSamples(from[0] as string, to[0] as string));
      } else members.push(...from);
    }
    if (this.src[this.i++] !== "]") throw new Unsupported("unclosed class");
    if (!negated) return { kind: "chars", pick: [...new Set(members)] };
    // Test the pool against the class as written: exact, whatever ranges and escapes it holds.
    const positive = compileClass(`[${this.src.slice(start + 2, this.i)}`);
    const outside = ANY.filter((x) => !positive.test(x));
    if (outside.length === 0) throw new Unsupported("negated class covering the whole pool");
    return { kind: "chars", pick: outside };
  }

  private classChar(): string[] {
    const c = this.src[this.i++] as string;
    return c === "\\" ? this.escape() : [c];
  }

  private quantified(node: Node): Node {
    const c = this.src[this.i];
    let min: number;
    let max: number;
    if (c === "?") [min, max] = [0, 1];
    else if (c === "*") [min, max] = [0, Number.POSITIVE_INFINITY];
    else if (c === "+") [min, max] = [1, Number.POSITIVE_INFINITY];
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) return node; // a literal "{", as JavaScript reads it without the u flag
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Number.POSITIVE_INFINITY : Number(m[3]);
      this.i += m[0].length - 1;
    } else return node;
    this.i++;
    if (this.src[this.i] === "?") this.i++; // lazy: the same language
    return { kind: "repeat", node, min, max };
  }
}

/** The ends, the middle and a neighbour of each end of a character range. */
function rangeSamples(from: string, to: string): string[] {
  const a = from.codePointAt(0) as number;
  const b = to.codePointAt(0) as number;
  if (b < a) throw new Unsupported("reversed range");
  return [...new Set([a, a + 1, Math.floor((a + b) / 2), b - 1, b])]
    .filter((x) => x >= a && x <= b)
    .map((x) => String.fromCodePoint(x));
}

function compileClass(cls: string): RegExp {
  try {
    return new RegExp(`^${cls}$`, "u");
  } catch {
    throw new Unsupported(`class ${cls}`);
  }
}

/** A small seeded PRNG (mulberry32): the same samples on every run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
