import ts from 'typescript';

/** A problem at a place in a source file; `where` is `path:line`. */
export interface TextFinding {
  where: string;
  problem: string;
}

/** One `vscode.l10n.t` (or `l10n.t`) call: its message when it is a literal, and how many arguments follow it. */
export interface L10nCall {
  where: string;
  /** `undefined` when the first argument is not a plain string literal (l10n-dev cannot extract it then). */
  message: string | undefined;
  args: number;
}

/** VS Code calls whose every argument that is not an options object is shown as is: the message and the buttons. */
const messageCalls = new Set(['showInformationMessage', 'showWarningMessage', 'showErrorMessage']);
/** Properties of options, items and tree or status bar items that VS Code shows to the user. */
const shownProperties = new Set([
  'title',
  'placeHolder',
  'placeholder',
  'prompt',
  'detail',
  'description',
  'label',
  'tooltip',
  'saveLabel',
  'openLabel',
  'justification',
]);
/** Properties whose functions return a text VS Code shows (an input box's validation message). */
const shownResults = new Set(['validateInput']);
/** Object literals under these properties are JSON Schemas for a model, not text for the user. */
const modelFacing = new Set(['inputSchema', 'parameters', 'properties']);

function where(path: string, source: ts.SourceFile, node: ts.Node): string {
  return `${path}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
}

/** Whether `node` calls `vscode.l10n.t(…)` or `l10n.t(…)`. */
function isL10nCall(node: ts.Node): node is ts.CallExpression {
  if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression) || node.expression.name.text !== 't') return false;
  const owner = node.expression.expression;
  return (ts.isIdentifier(owner) && owner.text === 'l10n') || (ts.isPropertyAccessExpression(owner) && owner.name.text === 'l10n');
}

/** The name a call is made by: `b` for `a.b(…)` and `b(…)`, `TreeItem` for `new vscode.TreeItem(…)`. */
function calleeName(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  return undefined;
}

/** Whether `text` has a word a translator would change (an icon such as `$(warning)` or `$(sync~spin)` is none). */
const hasWords = (text: string): boolean => /\p{L}/u.test(text.replace(/\$\([\w-]+(?:~[\w-]+)?\)/g, ''));

/**
 * The raw texts with words `expression` may evaluate to: string and template literals
 * (also inside conditionals, `??`, `||`, `+`, arrays, and returned by a function), never
 * what an `l10n.t` call, another call or a variable gives (those are judged where they are made).
 */
function rawTexts(expression: ts.Node): ts.Node[] {
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) return hasWords(expression.text) ? [expression] : [];
  if (ts.isTemplateExpression(expression)) {
    const literal = [expression.head.text, ...expression.templateSpans.map((span) => span.literal.text)].join('');
    if (hasWords(literal)) return [expression];
    // What follows `$(` names an icon, not a text.
    const before = [expression.head.text, ...expression.templateSpans.map((span) => span.literal.text)];
    return expression.templateSpans.flatMap((span, index) => (before[index]?.endsWith('$(') ? [] : rawTexts(span.expression)));
  }
  if (ts.isConditionalExpression(expression)) return [...rawTexts(expression.whenTrue), ...rawTexts(expression.whenFalse)];
  if (ts.isBinaryExpression(expression)) {
    const operator = expression.operatorToken.kind;
    const joins = [ts.SyntaxKind.PlusToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.AmpersandAmpersandToken];
    return joins.includes(operator) ? [...rawTexts(expression.left), ...rawTexts(expression.right)] : [];
  }
  if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression) || ts.isSatisfiesExpression(expression) || ts.isNonNullExpression(expression)) {
    return rawTexts(expression.expression);
  }
  if (ts.isSpreadElement(expression)) return rawTexts(expression.expression);
  if (ts.isArrayLiteralExpression(expression)) return expression.elements.flatMap(rawTexts);
  return [];
}

/** The raw texts a function returns (its expression body, or its `return`s outside nested functions). */
function returnedRawTexts(fn: ts.Node): ts.Node[] {
  const body = ts.isArrowFunction(fn) || ts.isFunctionExpression(fn) || ts.isMethodDeclaration(fn) ? fn.body : undefined;
  if (!body) return [];
  if (!ts.isBlock(body)) return rawTexts(body);
  const found: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node)) return;
    if (ts.isReturnStatement(node) && node.expression) found.push(...rawTexts(node.expression));
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  return found;
}

function isModelFacing(node: ts.Node): boolean {
  for (let parent = node.parent as ts.Node | undefined; parent; parent = parent.parent) {
    if (ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name) && modelFacing.has(parent.name.text)) return true;
  }
  return false;
}

function propertyName(name: ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
}

/**
 * Every text a user would read that a source file gives VS Code without `l10n.t`: the
 * message and buttons of `show…Message`, the label of `new TreeItem`, the title of
 * `createWebviewPanel`, and the shown properties (title, placeHolder, prompt, label,
 * description, detail, tooltip, …) of object literals and of assignments such as
 * `picker.title = …`, with `validateInput`'s messages. Log lines, command ids and setting
 * keys are never in those places. Each finding names `path:line` and the text.
 */
export function unlocalizedTexts(path: string, text: string): TextFinding[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const findings: TextFinding[] = [];
  const report = (nodes: ts.Node[], what: string): void => {
    for (const node of nodes) findings.push({ where: where(path, source, node), problem: `${what} is not localized: ${node.getText(source)}` });
  };
  const visit = (node: ts.Node): void => {
    if (isL10nCall(node)) return;
    if (ts.isCallExpression(node) && messageCalls.has(calleeName(node.expression) ?? '')) {
      report(node.arguments.filter((argument) => !ts.isObjectLiteralExpression(argument)).flatMap(rawTexts), `${calleeName(node.expression)} text`);
    }
    if (ts.isCallExpression(node) && calleeName(node.expression) === 'createWebviewPanel' && node.arguments[1]) {
      report(rawTexts(node.arguments[1]), 'createWebviewPanel title');
    }
    if (ts.isNewExpression(node) && calleeName(node.expression) === 'TreeItem' && node.arguments?.[0]) report(rawTexts(node.arguments[0]), 'TreeItem label');
    if (ts.isPropertyAssignment(node) && !isModelFacing(node)) {
      const name = propertyName(node.name) ?? '';
      if (shownProperties.has(name)) report(rawTexts(node.initializer), name);
      if (shownResults.has(name)) report(returnedRawTexts(node.initializer), name);
    }
    if (ts.isMethodDeclaration(node) && ts.isObjectLiteralExpression(node.parent) && shownResults.has(propertyName(node.name) ?? '')) {
      report(returnedRawTexts(node), 'validateInput');
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(node.left)) {
      const name = node.left.name.text;
      if (shownProperties.has(name)) report(rawTexts(node.right), name);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
}

/** Every `l10n.t` call of a source file, in order. */
export function l10nCalls(path: string, text: string): L10nCall[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const calls: L10nCall[] = [];
  const visit = (node: ts.Node): void => {
    if (isL10nCall(node)) {
      const [first, ...rest] = node.arguments;
      const literal = first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)) ? first.text : undefined;
      calls.push({ where: where(path, source, node), message: literal, args: rest.length });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return calls;
}

/**
 * What is wrong with one call: a message that is not a literal (l10n-dev cannot extract
 * it), or placeholders `{0}`, `{1}`… that do not match the arguments one to one
 * (a placeholder without its argument shows as `{1}`; an argument without its placeholder is lost).
 */
export function callProblem(call: L10nCall): string | undefined {
  if (call.message === undefined) return 'the message is not a string literal: l10n-dev cannot put it in the bundle (use {0} placeholders and arguments)';
  const used = new Set([...call.message.matchAll(/\{(\d+)\}/g)].map((match) => Number(match[1])));
  const expected = Array.from({ length: call.args }, (_, index) => index);
  const missing = expected.filter((index) => !used.has(index));
  const extra = [...used].filter((index) => index >= call.args);
  if (extra.length > 0) return `"${call.message}" has {${extra.join('}, {')}} but only ${call.args} argument(s)`;
  if (missing.length > 0) return `"${call.message}" never shows argument(s) ${missing.join(', ')}`;
  return undefined;
}
