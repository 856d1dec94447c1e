// Measures each function's own body: the lines from its opening to its closing line, not counting the lines inside
// the bodies of functions nested in it (those are measured on their own). docs/style.md "Function length" holds the
// limit and the exceptions; test/house/function-length.test.ts keeps code and that table in step.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export const ownBodyLinesMax = 70;

export interface MeasuredFunction {
  /** Repo-relative path with forward slashes. */
  readonly file: string;
  /** Dotted name: enclosing named functions/classes, then this one (`createX.start`, `Peer.send`). */
  readonly name: string;
  /** 1-based line of the function's start. */
  readonly line: number;
  readonly ownLines: number;
}

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration;

function isFunctionNode(node: ts.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

function propertyNameText(name: ts.PropertyName | ts.BindingName): string | undefined {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) {
    return name.text;
  }
  return undefined;
}

/** The name a function is known by: its own, or the variable, property or class member it is assigned to. */
function ownName(node: FunctionNode): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name !== undefined) return propertyNameText(node.name) ?? '<computed>';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return propertyNameText(parent.name) ?? '<computed>';
  }
  if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    return parent.left.getText().replace(/^this\./, '');
  }
  return '<anonymous>';
}

function lineOf(source: ts.SourceFile, pos: number): number {
  return source.getLineAndCharacterOfPosition(pos).line;
}

/** Every function of one source text with its own-body line count. */
export function measureSource(file: string, text: string): MeasuredFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: MeasuredFunction[] = [];

  function visit(node: ts.Node, scope: string[]): void {
    if (isFunctionNode(node) && node.body !== undefined) {
      const name = [...scope, ownName(node)].join('.');
      const body = node.body;
      const first = lineOf(source, node.getStart(source));
      const last = lineOf(source, body.getEnd());
      const nested = new Set<number>();
      collectNestedInteriors(body, nested);
      let own = 0;
      for (let line = first; line <= last; line++) if (!nested.has(line)) own++;
      found.push({ file, name, line: first + 1, ownLines: own });
      ts.forEachChild(node, (child) => visit(child, [...scope, ownName(node)]));
      return;
    }
    if (ts.isClassLike(node)) {
      const className = node.name?.text ?? (ts.isVariableDeclaration(node.parent) ? propertyNameText(node.parent.name) : undefined);
      ts.forEachChild(node, (child) => visit(child, [...scope, className ?? '<class>']));
      return;
    }
    ts.forEachChild(node, (child) => visit(child, scope));
  }

  // The interior lines (strictly between the first and the last line) of every function body directly nested here.
  function collectNestedInteriors(node: ts.Node, into: Set<number>): void {
    ts.forEachChild(node, (child) => {
      if (isFunctionNode(child) && child.body !== undefined) {
        const start = lineOf(source, child.body.getStart(source));
        const end = lineOf(source, child.body.getEnd());
        for (let line = start + 1; line < end; line++) into.add(line);
        return;
      }
      collectNestedInteriors(child, into);
    });
  }

  visit(source, []);
  return found;
}

const productionRoots = ['src', 'server', 'web', 'bin'];
const skippedDirs = new Set(['node_modules', 'dist', 'build']);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (skippedDirs.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path);
    return /\.(ts|mts|cts)$/.test(name) && !/\.d\.[mc]?ts$/.test(name) ? [path] : [];
  });
}

/** Every production TypeScript file (src/, server/, web/, bin/), repo-relative. */
export function productionFiles(repoRoot: string): string[] {
  return productionRoots
    .flatMap((root) => {
      try {
        return walk(join(repoRoot, root));
      } catch {
        return [];
      }
    })
    .map((path) => relative(repoRoot, path).split('\\').join('/'))
    .sort();
}

export function measureRepo(repoRoot: string): MeasuredFunction[] {
  return productionFiles(repoRoot).flatMap((file) => measureSource(file, readFileSync(join(repoRoot, file), 'utf8')));
}

export interface LengthException {
  readonly file: string;
  readonly name: string;
  readonly reason: string;
}

/**
 * The exception table under the "Function length" heading of docs/style.md: rows of
 * `| path | function | reason |`, path and function in backticks.
 */
export function readLengthExceptions(styleText: string): LengthException[] {
  const section = styleText.split(/^## Function length\s*$/m)[1]?.split(/^## /m)[0] ?? '';
  const rows: LengthException[] = [];
  for (const match of section.matchAll(/^\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|\s*([^|]*?)\s*\|\s*$/gm)) {
    rows.push({ file: match[1]!, name: match[2]!, reason: match[3]! });
  }
  return rows;
}
