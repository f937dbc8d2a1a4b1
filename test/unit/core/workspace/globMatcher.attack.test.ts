import assert from 'node:assert/strict';
import { stepCapabilities } from '../../../../src/core/capabilities/stepCapabilities';
import type { CapabilityCatalogue } from '../../../../src/core/capabilities/capabilityCatalogue';
import { compileGlob } from '../../../../src/core/workspace/globMatcher';
import { PathRefusedError } from '../../../../src/core/workspace/resolveInRoot';
import { inWriteScope } from '../../../../src/core/workspace/writeScope';
import { makePlan, makeStep } from '../../../support/randomPlans';

// Found while attacking planning (2026): a glob compiled to a backtracking regular expression, so a model's glob
// ("*a*a*a*a*a*a*a*a*b" in list_files or search_text, a step's "writes") or a repository's (an instructions file's
// applyTo) over a file name of 60 "a"s froze the process; it runs without yielding, so no time limit could end it.
// Before the fix each of these never ended; no time is measured, the answer is asserted.
describe('compileGlob: patterns that backtrack (attack)', () => {
  const name = 'a'.repeat(250);
  const hostile = [`${'*a'.repeat(20)}*b`, `${'**/'.repeat(30)}x`, `src/${'a*'.repeat(20)}b`, `${'?*'.repeat(20)}b`, `{${'*a*a*a*a,'.repeat(5)}*b}c`];

  it('matches a long name against every hostile glob', () => {
    for (const glob of hostile) assert.equal(compileGlob(glob)(`src/${name}`), false, glob);
    assert.equal(compileGlob(`${'**/'.repeat(30)}x`)(`${'a/'.repeat(200)}x`), true);
    assert.equal(compileGlob(`${'*a'.repeat(20)}*`)(name), true);
  });

  it("a step's writes and an instructions file's applyTo with such a glob", () => {
    assert.equal(inWriteScope(`src/${name}`, [hostile[0]!]), false);
    const catalogue: CapabilityCatalogue = {
      instructions: [{ kind: 'scoped', path: '.github/instructions/x.instructions.md', directory: '', applyTo: [hostile[0]!], text: 'rules', bytes: 5 }],
      skills: [],
      diagnostics: [],
    };
    const step = makeStep('S1', { input: `Fix src/${name}` });
    assert.deepEqual(stepCapabilities(step, makePlan([step]), catalogue).instructions, []);
  });

  it('refuses a class the matcher cannot take, saying so, as it refused other bad globs', () => {
    assert.throws(() => compileGlob('[z-a].ts'), (error: unknown) => error instanceof PathRefusedError && /the glob cannot be read/.test(error.message));
    assert.equal(compileGlob('[[]x')('[x'), true, 'a "[" inside a class is a character');
  });
});
