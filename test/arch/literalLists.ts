import ts from 'typescript';

/** A list of string literals written in a source file: an array literal or a union of literal types (other elements are left out). */
export interface LiteralList {
  line: number;
  values: string[];
}

/** Every list in `text` (a TypeScript file) that holds only string literals, at least two of them. */
export function literalLists(path: string, text: string): LiteralList[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const lists: LiteralList[] = [];
  const add = (node: ts.Node, elements: readonly ts.Node[]): void => {
    const values = elements.flatMap(stringOf);
    if (values.length >= 2 && values.length === elements.length) lists.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, values });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isArrayLiteralExpression(node)) add(node, node.elements);
    else if (ts.isUnionTypeNode(node)) add(node, node.types.map((type) => (ts.isLiteralTypeNode(type) ? type.literal : type)));
    ts.forEachChild(node, visit);
  };
  visit(file);
  return lists;
}

function stringOf(node: ts.Node): string[] {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? [node.text] : [];
}
