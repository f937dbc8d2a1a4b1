import assert from 'node:assert/strict';
import type { RunState, StepState } from '../../../../src/core/engine/runEvents';
import { commandsNotUndone } from '../../../../src/core/engine/commandsNotUndone';

const step = (id: string, extra: Partial<StepState> = {}): StepState => ({ id, status: 'completed', attempts: 1, ...extra });
const state = (steps: StepState[]): RunState => ({
  runId: 'r',
  status: 'completed',
  plan: undefined,
  steps: Object.fromEntries(steps.map((each) => [each.id, each])),
  results: {},
  supplied: {},
  lastSeq: 0,
  warnings: [],
  resumeCount: 0,
});

describe('commandsNotUndone', () => {
  it('is nothing for a run whose steps started no command', () => {
    assert.equal(commandsNotUndone(state([step('A'), step('B', { commandsStarted: [] })])), undefined);
  });

  it('names the one step that ran a command, or one an interruption left with a command that may have run', () => {
    assert.equal(
      commandsNotUndone(state([step('A'), step('C', { commandsStarted: ['/w\u0000npm test'] })])),
      'Commands are not undone: step C ran a command; check what it changed (git status shows it in a repository).',
    );
    assert.match(commandsNotUndone(state([step('D', { commandsInterrupted: ['/w\u0000make'] })])) ?? '', /step D ran a command/);
  });

  it('names five steps at most, then how many more, and only those of the steps undone', () => {
    const many = state(['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((id) => step(id, { commandsStarted: ['/w\u0000x'] })));
    assert.equal(
      commandsNotUndone(many),
      'Commands are not undone: steps A, B, C, D, E and 2 more ran commands; check what they changed (git status shows it in a repository).',
    );
    assert.match(commandsNotUndone(many, new Set(['B', 'Z'])) ?? '', /: step B ran a command;/);
    assert.equal(commandsNotUndone(many, new Set(['Z'])), undefined);
  });

  it('names a step a repair replaced that ran a command too, first (a trial\'s Undo named only the repair\'s test run)', () => {
    const repaired: RunState = {
      ...state([step('S6'), step('S7', { commandsStarted: ['/w\u0000npm test'] })]),
      replacedSteps: [{ planVersion: 1, step: { id: 'S5', title: 'Run the tests' } as NonNullable<RunState['replacedSteps']>[number]['step'], state: step('S5', { status: 'failed', commandsStarted: ['/w\u0000npm test'] }) }],
    };
    assert.match(commandsNotUndone(repaired) ?? '', /: steps S5, S7 ran commands;/);
  });
});
