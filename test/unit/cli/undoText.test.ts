import assert from 'node:assert/strict';
import { foundChanges, undoOutputLines, type FoundChange } from '../../../src/cli/undoText';
import type { Checkpoint } from '../../../src/core/runStorePorts';
import type { UndoReport } from '../../../src/core/tools/undoRun';

const report = (part: Partial<UndoReport>): UndoReport => ({ runId: 'r', restored: [], removed: [], unchanged: [], undoneBefore: [], refused: [], overwritable: [], ...part });
const changed = (reason: string): string => `${reason} was changed after step T001 changed it, and undoing would lose those changes`;
const ticks: FoundChange[] = [
  { stepId: 'T001', path: 'tasks.md', tookBack: false },
  { stepId: 'T002', path: 'tasks.md', tookBack: true },
  { stepId: 'T003', path: 'tasks.md', tookBack: true },
];

describe('undoOutputLines: what the command line says an Undo did', () => {
  // A newcomer's trial: "Undo restored tasks.md. Left alone: tasks.md was changed after…", one file said both ways.
  it('says a file Undo took back some changes to and kept others once, with the steps of each and why', () => {
    const partly = report({ restored: ['tasks.md', 'tasks.md'], refused: [{ path: 'tasks.md', reason: changed('tasks.md') }] });
    assert.deepEqual(undoOutputLines(partly, ticks, undefined), [
      "Undo took back part of the run's changes to tasks.md: those of steps T002 and T003. It kept the change of step T001: " +
        'tasks.md was changed after step T001 changed it, and undoing would lose those changes.',
    ]);
    const mixed = report({
      restored: ['a.txt', 'tasks.md', 'new.txt'],
      removed: [{ path: 'new.txt', kind: 'file' }],
      refused: [{ path: 'tasks.md', reason: changed('tasks.md') }, { path: 'c.txt', reason: changed('c.txt') }],
    });
    const commands = 'Commands are not undone: step C ran a command; check what it changed (git status shows it in a repository).';
    const lines = undoOutputLines(mixed, [...ticks, { stepId: 'T001', path: 'c.txt', tookBack: false }], commands);
    assert.deepEqual(lines, [
      'Undo restored a.txt and removed new.txt, which the run created.',
      "Undo took back part of the run's changes to tasks.md: those of steps T002 and T003. It kept the change of step T001: " +
        'tasks.md was changed after step T001 changed it, and undoing would lose those changes.',
      `Left alone: ${changed('c.txt')}.`,
      commands,
    ]);
    for (const line of lines) assert.ok(!(line.includes('tasks.md') && /restored|Left alone/.test(line)), line);
  });

  it('a change no checkpoint records is said by its reason alone; one change taken back is "that of"', () => {
    const reason = 'the record of how it was before step A changed it is missing (the run\'s checkpoints are damaged), so Undo cannot put that change back';
    const partly = report({ restored: ['f.txt'], refused: [{ path: 'f.txt', reason }] });
    assert.deepEqual(undoOutputLines(partly, [{ stepId: 'B', path: 'f.txt', tookBack: true }], undefined), [
      `Undo took back part of the run's changes to f.txt: that of step B. It did not take back the rest: ${reason}.`,
    ]);
  });

  it('is undoLines when no file is both restored and left alone', () => {
    const refused = [{ path: 'c.txt', reason: changed('c.txt') }];
    assert.deepEqual(undoOutputLines(report({ restored: ['a.txt'], refused }), [], undefined), [`Undo restored a.txt. Left alone: ${changed('c.txt')}.`]);
    assert.deepEqual(undoOutputLines(report({ undoneBefore: ['a.txt'] }), [], 'x'), ["Nothing to undo: an earlier Undo already took back the run's changes to a.txt."]);
  });
});

describe('foundChanges', () => {
  it('the changes still to take back before the Undo, each with whether it took it back', () => {
    const checkpoint = (seq: number, stepId: string, state: Checkpoint['state'], runId = 'r'): Checkpoint => ({
      runId, stepId, seq, path: 'tasks.md', operation: 'edit', before: { exists: false }, afterSha256: undefined, state,
    });
    const before = [checkpoint(1, 'T001', 'applied'), checkpoint(2, 'T002', 'applied'), checkpoint(3, 'T000', 'undone'), checkpoint(4, 'T9', 'abandoned'), checkpoint(1, 'R1', 'applied', 'r2')];
    const after = [checkpoint(1, 'T001', 'applied'), checkpoint(2, 'T002', 'undone'), checkpoint(3, 'T000', 'undone'), checkpoint(4, 'T9', 'abandoned'), checkpoint(1, 'R1', 'undone', 'r2')];
    assert.deepEqual(foundChanges(before, after), [
      { stepId: 'T001', path: 'tasks.md', tookBack: false },
      { stepId: 'T002', path: 'tasks.md', tookBack: true },
      { stepId: 'R1', path: 'tasks.md', tookBack: true },
    ]);
  });
});
