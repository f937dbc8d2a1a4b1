import assert from 'node:assert/strict';
import type { RunView } from '../../../src/shared/panelViewModel';
import { runAnnouncement } from '../../../webview/runAnnouncement';

const run = (extra: Partial<RunView>): RunView => ({ runId: 'r', status: 'running', objective: 'o', planVersion: 1, elapsedMs: 0, progress: { total: 5, completed: 2, failed: 0, rejected: 0, skipped: 0, notNeeded: 0, doneInSource: 0 }, steps: [], pending: [], timeline: { spanMs: 1, lanes: 0, bars: [] }, replans: [], warnings: [], ...extra });

describe('webview run announcement', () => {
  it('says the status and progress', () => {
    assert.equal(runAnnouncement(run({})), 'Run running: 2 of 5 steps completed.');
    assert.equal(runAnnouncement(run({ status: 'completed', progress: { total: 5, completed: 5, failed: 0, rejected: 0, skipped: 0, notNeeded: 0, doneInSource: 0 } })), 'Run completed: 5 of 5 steps completed.');
  });

  it('never says a failed or skipped step is done', () => {
    assert.equal(runAnnouncement(run({ status: 'failed', progress: { total: 2, completed: 0, failed: 1, rejected: 0, skipped: 1, notNeeded: 0, doneInSource: 0 } })), 'Run failed: 0 of 2 steps completed, 1 failed, 1 skipped.');
  });

  it('names every prompt waiting for the user, with a long prompt cut short', () => {
    const text = runAnnouncement(run({ status: 'waiting', pending: [{ stepId: 'W1', kind: 'approval', prompt: 'Write notes.md' }, { stepId: 'Q1', kind: 'clarification', prompt: 'x'.repeat(500) }] }));
    assert.match(text, /^Run waiting: 2 of 5 steps completed\. Waiting for you: approval of step W1, Write notes\.md; clarification of step Q1, x{160}…\. Open answers it in the editor\.$/);
  });

  it('names a step that is yours to do by its first line and says how to answer it', () => {
    const prompt = 'Step S002 is yours to do: Update the README\nAdd a usage section\n\nResults of the steps before it:\nS001: done';
    assert.equal(runAnnouncement(run({ pending: [{ stepId: 'S002', kind: 'manual', prompt }] })), 'Run running: 2 of 5 steps completed. Step S002 is yours to do: Update the README. Mark it Done or Failed below.');
  });

  it('a run that did nothing says "Nothing done"; a prompt\'s own question mark is not followed by a full stop; two steps of yours are "each"', () => {
    const nothing = run({ status: 'partial', steps: [], progress: { total: 2, completed: 0, failed: 0, rejected: 2, skipped: 0, notNeeded: 0, doneInSource: 0 } });
    assert.equal(runAnnouncement(nothing), 'Nothing done: 0 of 2 steps completed, 2 rejected by you.');
    const asking = runAnnouncement(run({ status: 'waiting', pending: [{ stepId: 'S003', kind: 'approval', prompt: 'Write src/stats.js?' }] }));
    assert.match(asking, /approval of step S003, Write src\/stats\.js\. Open answers/);
    const two = runAnnouncement(run({ pending: [{ stepId: 'A', kind: 'manual', prompt: 'Step A is yours to do: one' }, { stepId: 'B', kind: 'manual', prompt: 'Step B is yours to do: two' }] }));
    assert.match(two, /two\. Mark each Done or Failed below\.$/);
  });
});
