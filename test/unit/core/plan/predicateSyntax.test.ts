import assert from 'node:assert/strict';
import { predicateSyntaxError } from '../../../../src/core/plan/predicateSyntax';

describe('predicateSyntaxError', () => {
  for (const expression of ['result === true', 'result.files.length > 0 && depends.S001.ok', '(() => 1)()', 'result.includes("ok");', '`${result}`.length < 100']) {
    it(`accepts ${expression}`, () => assert.equal(predicateSyntaxError(expression), undefined));
  }
  for (const [expression, pattern] of [['', /empty/], ['result ===', /Unexpected/], ['a b', /unexpected text/], ['if (x) {}', /Unexpected/], ['x; y', /unexpected text/]] as const) {
    it(`refuses ${JSON.stringify(expression)}`, () => assert.match(predicateSyntaxError(expression) ?? '', pattern));
  }
});
