/**
 * Lists every function of the project's own source longer than the house limit (80 lines):
 * declarations, arrows, methods, accessors, constructors and function expressions, nested ones
 * included. A declarative table (an object or array literal) is not a function, so it is never
 * listed, however long; a function inside one is.
 *
 * `npx tsx scripts/long-functions.ts` prints them longest first; `long-functions.test.ts` fails on
 * one that `long-functions.allowlist.ts` does not name.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const MAX_FUNCTION_LINES = 80;

export const PROJECT_ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The rooms that hold the project's own TypeScript. */
const SOURCE_ROOTS = [
  "bin",
  "bench",
  "cli",
  "conformance",
  "mocks",
  "reference-server",
  "scripts",
  "src",
  "test",
];

/** Written by a generator, never by hand: a length there says nothing about the code's shape. */
const GENERATED = ["src/generated/"];

/**
 * The callbacks a test file hands to describe/it: a test file's table of cases, not wiring. A
 * helper function in a test file is still measured.
 */
const TEST_BLOCKS = new Set(["describe", "it", "test", "beforeAll", "beforeEach", "afterAll", "afterEach"]);

export interface LongFunction {
  /** Path from the project root, with forward slashes. */
  file: string;
  /** The function's name, prefixed by the names of the functions it is nested in ("outer > inner"). */
  name: string;
  line: number;
  lines: number;
}

export function sourceFiles(root = PROJECT_ROOT): string[] {
  return SOURCE_ROOTS.flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts"))
      .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join("/")),
  )
    .filter((file) => !file.split("/").includes("node_modules") && !file.split("/").includes("dist"))
    .filter((file) => !GENERATED.some((prefix) => file.startsWith(prefix)))
    .sort();
}

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration;

function isFunctionWithBody(node: ts.Node): node is FunctionNode {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)) &&
    node.body !== undefined
  );
}

/** The callee of a call a function is passed to: `it` in `it("…", () => …)`, `on` in `x.on("end", …)`. */
function calleeName(call: ts.CallExpression): string {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return "call";
}

/** A name a reader can find: its own, the variable or property it is assigned to, or where it is passed. */
function functionName(node: FunctionNode, source: ts.SourceFile): string {
  if (!ts.isArrowFunction(node) && node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText(source);
  if (ts.isCallExpression(parent)) return `${calleeName(parent)}(…) callback`;
  if (ts.isNewExpression(parent)) return `new ${parent.expression.getText(source)}(…) callback`;
  if (ts.isReturnStatement(parent)) return "returned function";
  return "anonymous function";
}

function isTestBlock(node: FunctionNode): boolean {
  const parent = node.parent;
  if (!ts.isCallExpression(parent)) return false;
  let callee: ts.Expression = parent.expression;
  // it.each([...])("…", fn), describe.skipIf(x)("…", fn), it.concurrent("…", fn)
  while (ts.isCallExpression(callee) || ts.isPropertyAccessExpression(callee)) callee = callee.expression;
  return ts.isIdentifier(callee) && TEST_BLOCKS.has(callee.text);
}

/** The literal a function returns as its last step, when it returns an array or object written out. */
function returnedTable(node: FunctionNode): ts.Expression | undefined {
  const body = node.body;
  if (!body) return undefined;
  let value: ts.Expression | undefined;
  if (ts.isBlock(body)) {
    const last = body.statements.at(-1);
    value = last && ts.isReturnStatement(last) ? last.expression : undefined;
  } else value = body as ts.Expression;
  while (value && (ts.isParenthesizedExpression(value) || ts.isAsExpression(value))) value = value.expression;
  return value && (ts.isArrayLiteralExpression(value) || ts.isObjectLiteralExpression(value))
    ? value
    : undefined;
}

const lineOf = (source: ts.SourceFile, pos: number) => source.getLineAndCharacterOfPosition(pos).line;

/**
 * A function's length from its first token to its closing brace, less the lines of the table it
 * returns: a function that reads the spec and returns its cases written out is a declarative table.
 */
function measuredLines(node: FunctionNode, source: ts.SourceFile): number {
  const lines = lineOf(source, node.getEnd()) - lineOf(source, node.getStart(source)) + 1;
  const table = returnedTable(node);
  if (!table) return lines;
  return lines - (lineOf(source, table.getEnd()) - lineOf(source, table.getStart(source)));
}

/** Every function in one file, with its measured length (see measuredLines). */
export function functionsIn(file: string, text: string): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node, outer: string[]) => {
    let names = outer;
    if (isFunctionWithBody(node) && !isTestBlock(node)) {
      const name = functionName(node, source);
      names = [...outer, name];
      const line = lineOf(source, node.getStart(source)) + 1;
      found.push({ file, name: names.join(" > "), line, lines: measuredLines(node, source) });
    }
    ts.forEachChild(node, (child) => visit(child, names));
  };
  visit(source, []);
  return found;
}

export function longFunctions(root = PROJECT_ROOT, max = MAX_FUNCTION_LINES): LongFunction[] {
  return sourceFiles(root)
    .flatMap((file) => functionsIn(file, readFileSync(join(root, file), "utf8")))
    .filter((f) => f.lines > max)
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const found = longFunctions();
  for (const f of found) console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`);
  console.log(`${found.length} functions over ${MAX_FUNCTION_LINES} lines`);
}
