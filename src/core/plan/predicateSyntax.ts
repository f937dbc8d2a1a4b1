import { parseExpressionAt } from 'acorn';
import { errorMessage } from '../../shared/errorMessage';

/**
 * Checks that `expression` is one complete JavaScript expression, without running it.
 * Returns the syntax error message, or `undefined` when it parses.
 */
export function predicateSyntaxError(expression: string): string | undefined {
  if (expression.trim() === '') return 'the expression is empty';
  try {
    const node = parseExpressionAt(expression, 0, { ecmaVersion: 'latest' });
    const rest = expression.slice(node.end).trim();
    if (rest !== '' && rest !== ';') return `unexpected text after the expression: "${rest.slice(0, 40)}"`;
    return undefined;
  } catch (error: unknown) {
    return errorMessage(error);
  }
}
