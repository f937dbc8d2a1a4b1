import assert from 'node:assert/strict';
import { critiquePlan } from '../../../../src/core/plan/critiquePlan';
import type { Step } from '../../../../src/core/plan/planSchema';
import { unorderedChangeFindings } from '../../../../src/core/plan/unorderedChangeFindings';
import { makePlan, makeStep } from '../../../support/randomPlans';

const write = (id: string, path: string, dependsOn: string[] = []): Step =>
  makeStep(id, { kind: 'tool', tool: 'write_file', args: { path, content: id }, dependsOn, input: undefined });
const edit = (id: string, path: string, dependsOn: string[] = []): Step =>
  makeStep(id, { kind: 'tool', tool: 'edit_file', args: { path, edits: [{ search: 'a', replace: id }] }, dependsOn, input: undefined });
const remove = (id: string, path: string, dependsOn: string[] = []): Step =>
  makeStep(id, { kind: 'tool', tool: 'delete_file', args: { path }, dependsOn, input: undefined });
const pairs = (steps: Step[]): [string, string, string][] =>
  unorderedChangeFindings(makePlan(steps), undefined).map((found) => [found.otherId, found.stepId, found.path]);

// From a newcomer's trial of the CLI: `validate` and the critique said nothing of two steps changing one file in either
// order; the run then failed one of them ("changed in this run by step …").
describe('unorderedChangeFindings', () => {
  it('names two steps that change one file in an order left to chance when one writes it whole or deletes it', () => {
    assert.deepEqual(pairs([edit('bump', 'package.json'), write('rewrite', './package.json')]), [['bump', 'rewrite', 'package.json']]);
    assert.deepEqual(pairs([write('a', 'x.txt'), write('b', 'x.txt')]), [['a', 'b', 'x.txt']]);
    assert.deepEqual(pairs([edit('a', 'x.txt'), remove('b', 'x.txt')]), [['a', 'b', 'x.txt']]);
  });

  it('says what the order decides, in words, and what to do', () => {
    const [found] = unorderedChangeFindings(makePlan([edit('bump', 'package.json'), write('rewrite', 'package.json')]), undefined);
    assert.equal(
      found?.message,
      'Steps "bump" (edit_file) and "rewrite" (write_file) both change package.json and neither waits for the other, so which runs first is left to chance: ' +
        'the whole-file write is refused when the other change came first (it would drop it), and that step fails.',
    );
    assert.equal(found.recommendation, 'Make one of two steps that change the same file depend on the other, in the order the changes are to be made.');
    const [deletion] = unorderedChangeFindings(makePlan([remove('a', 'x'), edit('b', 'x')]), undefined);
    assert.match(deletion?.message ?? '', /a change made after the deletion finds no file, and a deletion made after the change throws it away\.$/);
  });

  it('names nothing when one waits for the other, directly or through other steps, or both are edits', () => {
    assert.deepEqual(pairs([write('a', 'x.txt'), write('b', 'x.txt', ['a'])]), []);
    assert.deepEqual(pairs([write('a', 'x.txt'), makeStep('mid', { dependsOn: ['a'] }), edit('b', 'x.txt', ['mid'])]), []);
    assert.deepEqual(pairs([write('b', 'x.txt', ['a']), write('a', 'x.txt')]), [], 'written in any order in the file');
    assert.deepEqual(pairs([edit('a', 'x.txt'), edit('b', 'x.txt')]), []);
    assert.deepEqual(pairs([write('a', 'x.txt'), write('b', 'y.txt')]), []);
  });

  it('finds the unordered pair past two edits that are ordered among themselves', () => {
    // a and b are both edits (fine); c writes after b only, so a and c may run in either order.
    assert.deepEqual(pairs([edit('a', 'x'), edit('b', 'x'), write('c', 'x', ['b'])]), [['a', 'c', 'x']]);
  });

  it('leaves out paths a template decides, paths the run refuses, and plans with a cycle', () => {
    assert.deepEqual(pairs([write('a', '{{results.s.path}}'), write('b', '{{results.s.path}}')]), []);
    assert.deepEqual(pairs([write('a', '$s'), write('b', '$s')]), []);
    assert.deepEqual(pairs([write('a', '../out.txt'), write('b', '../out.txt')]), []);
    assert.deepEqual(pairs([write('a', 'x', ['b']), write('b', 'x', ['a'])]), []);
  });

  it('is one warning of the critique, on the step that runs second', () => {
    const critique = critiquePlan(makePlan([edit('bump', 'package.json'), write('rewrite', 'package.json')]));
    const found = critique.issues.filter((issue) => issue.check === 'unordered_changes');
    assert.deepEqual(
      found.map((issue) => [issue.name, issue.severity, issue.stepId]),
      [['One file changed in an order left to chance', 'warning', 'rewrite']],
    );
  });

  it('stays quick on a plan of many writes of one file in a chain (the walks are bounded)', () => {
    const chain = Array.from({ length: 3000 }, (_, index) => write(`w${index}`, 'x', index === 0 ? [] : [`w${index - 1}`]));
    assert.deepEqual(pairs(chain), []);
    const loose = Array.from({ length: 3000 }, (_, index) => write(`w${index}`, 'x'));
    assert.deepEqual(pairs(loose), [['w0', 'w1', 'x']]);
  });
});
