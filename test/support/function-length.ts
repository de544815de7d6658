/**
 * The functions of a module and how many lines each spans, read with the TypeScript compiler's parser
 * (no type check): declarations, methods, and function and arrow expressions, each named by where it
 * is bound — `buildApp`, `keyRoutes`, `KeyCache.refresh`, `enableSearch > onInput` for one inside
 * another, `<anonymous>` where nothing names it.
 */
import ts from 'typescript';

export interface FunctionSpan {
  name: string;
  lines: number;
}

/** The name a function node is bound to, or undefined for an anonymous one. */
function boundName(node: ts.Node): string | undefined {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) && node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText();
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression.getText().split('.').pop();
    return callee === undefined ? undefined : `${callee}(…)`;
  }
  return undefined;
}

const isFunction = (node: ts.Node): node is ts.FunctionLikeDeclaration =>
  ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node)
  || ts.isConstructorDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node);

/** Every function of `source` (the text of the module at `path`) with the lines it spans, first to last. */
export function functionSpans(path: string, source: string): FunctionSpan[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const spans: FunctionSpan[] = [];
  const visit = (node: ts.Node, outer: string[]): void => {
    let inside = outer;
    if (isFunction(node)) {
      const owner = ts.isClassDeclaration(node.parent) && node.parent.name ? `${node.parent.name.text}.` : '';
      inside = [...outer, owner + (boundName(node) ?? '<anonymous>')];
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      spans.push({ name: inside.join(' > '), lines: last - first + 1 });
    }
    ts.forEachChild(node, (child) => visit(child, inside));
  };
  visit(file, []);
  return spans;
}
