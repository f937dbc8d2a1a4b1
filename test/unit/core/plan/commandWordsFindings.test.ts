import assert from 'node:assert/strict';
import { z } from 'zod';
import { wordsAsCommandFindings } from '../../../../src/core/plan/commandWordsFindings';
import { critiquePlan } from '../../../../src/core/plan/critiquePlan';
import type { Step } from '../../../../src/core/plan/planSchema';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import type { Tool } from '../../../../src/core/tools/tool';
import { makePlan, makeStep } from '../../../support/randomPlans';

const builtins = createToolRegistry(builtinTools());
const command = (id: string, argv: unknown, patch: Partial<Step> = {}): Step =>
  makeStep(id, { kind: 'tool', agent: undefined, input: undefined, tool: 'run_command', args: { argv }, onFailure: 'retry', maxAttempts: 2, ...patch });
const flagged = (steps: Step[]): string[][] =>
  wordsAsCommandFindings(makePlan(steps), builtins).map((found) => [found.stepId, found.line, found.words.join(' ')]);

describe('wordsAsCommandFindings: a command line made of English words (issue 29)', () => {
  it('flags the command lines the heuristic planner made of sentences', () => {
    assert.deepEqual(
      flagged([
        command('a', ['mypy', 'on', 'it']),
        command('b', ['black', 'on', 'the', 'package']),
        command('c', ['pytest', 'suite']),
        command('d', ['pytest', 'with', 'coverage']),
      ]),
      [
        ['a', 'mypy on it', 'on it'],
        ['b', 'black on the package', 'on the package'],
        ['c', 'pytest suite', 'suite'],
        ['d', 'pytest with coverage', 'with'],
      ],
    );
  });

  it('reads a program written with spaces in it as its words', () => {
    assert.deepEqual(flagged([command('a', ['black on the package'])]), [['a', 'black on the package', 'on the package']]);
  });

  it('leaves real command lines alone: a program\'s own words, paths, options, text to print', () => {
    for (const argv of [
      ['npm', 'test'],
      ['make', 'all'],
      ['pytest', 'tests'],
      ['python3', '-m', 'pytest', '-q'],
      ['npm', 'run', 'build'],
      ['mypy', 'src/pkg'],
      ['git', 'status'],
      ['echo', 'on', 'the', 'way'],
      ['black', '.'],
      ['pytest'],
      ['cargo', 'test', '--', 'the'],
    ]) {
      assert.deepEqual(flagged([command('a', argv)]), [], argv.join(' '));
    }
    assert.deepEqual(flagged([command('a', 'mypy on it')]), [], 'an argv that is not a list is validatePlan\'s to report');
  });

  it('looks at command checks too, and at tools that run commands by their declared effect', () => {
    assert.deepEqual(flagged([makeStep('a', { checks: [{ kind: 'command', argv: ['pytest', 'the', 'suite'] }] })]), [['a', 'pytest the suite', 'the suite']]);
    const runner: Tool = { name: 'shell', description: 'shell', inputSchema: z.unknown(), effects: 'command', run: () => Promise.resolve('') };
    const reader: Tool = { ...runner, name: 'peek', effects: 'read' };
    const tools = createToolRegistry([runner, reader]);
    const plan = makePlan([
      makeStep('a', { kind: 'tool', tool: 'shell', args: { argv: ['mypy', 'on', 'it'] } }),
      makeStep('b', { kind: 'tool', tool: 'peek', args: { argv: ['mypy', 'on', 'it'] } }),
    ]);
    assert.deepEqual(wordsAsCommandFindings(plan, tools).map((found) => found.stepId), ['a']);
  });

  it('is a critical finding that brings a plan to 5 at best (it scored 10 before)', () => {
    const critique = critiquePlan(makePlan([command('S1', ['mypy', 'on', 'it'])]), { tools: builtins });
    assert.deepEqual(
      critique.issues.map((found) => [found.check, found.name, found.severity, found.message]),
      [
        [
          'words_as_command',
          'Command line made of words',
          'critical',
          'Step "S1" runs `mypy on it`: "on", "it" are English words, not arguments the program takes, so the command fails or does something else.',
        ],
      ],
    );
    assert.equal(critique.score, 5);
  });
});
