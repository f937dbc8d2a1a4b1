import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processAnswerSeal } from '../../../src/core/engine/answerSeals';
import { replayJournal } from '../../../src/core/engine/replayJournal';
import { resumeRun } from '../../../src/core/engine/resumeRun';
import { runPlan } from '../../../src/core/engine/runPlan';
import { builtinTools } from '../../../src/core/tools/builtinTools';
import { createFileRunStore } from '../../../src/node/fileRunStore';
import { ManualClock } from '../../fakes/manualClock';
import { createMemoryWorkspace } from '../../fakes/memoryWorkspace';
import { makePlan, makeStep } from '../../support/randomPlans';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const write = (id: string, path: string, dependsOn: string[] = []) =>
  makeStep(id, { kind: 'tool', agent: undefined, input: undefined, tool: 'write_file', args: { path, content: `${id}\n` }, dependsOn });

describe('attack: a crash tearing the journal\'s last line, then resume and resume again', () => {
  const dir = temporaryDirectory('torn-journal-');

  it('a torn last line is reported, the resume\'s lines are not glued to it, and the journal replays whole afterwards', async () => {
    const store = createFileRunStore(dir.path);
    const workspace = createMemoryWorkspace();
    const seal = processAnswerSeal();
    const options = { store, workspace, tools: builtinTools(), clock: new ManualClock(), answerSeal: seal };
    const plan = makePlan([write('a', 'a.txt'), write('b', 'b.txt', ['a'])]);
    const waited = await runPlan(plan, { ...options, idSource: () => 'torn' }).result;
    assert.equal(waited.status, 'waiting');
    // The crash: half of a line reached the disk.
    appendFileSync(join(dir.path, 'torn.jsonl'), '{"type":"step_output","stepId":"a","text":"hal');
    const first = resumeRun('torn', { ...options, approvals: { a: true } });
    const afterFirst = await first.result;
    assert.equal(afterFirst.status, 'waiting', 'b asks next');
    assert.ok(first.state().warnings.some((warning) => /cut short/.test(warning)), 'the torn line was not reported');
    assert.equal(workspace.snapshot()['a.txt'], 'a\n');
    // Every line is JSON again, and a second resume reads the whole history (a's approval and change included).
    for (const line of readFileSync(join(dir.path, 'torn.jsonl'), 'utf8').split('\n').filter((text) => text !== '')) JSON.parse(line);
    const replayed = replayJournal('torn', (await store.load('torn'))!);
    assert.equal(replayed.steps['a']?.status, 'completed');
    const second = await resumeRun('torn', { ...options, approvals: { b: true } }).result;
    assert.equal(second.status, 'completed');
    assert.deepEqual(workspace.snapshot(), { 'a.txt': 'a\n', 'b.txt': 'b\n' });
  });
});

describe('attack: a committed snapshot nested deeper than a journal line may be', () => {
  const dir = temporaryDirectory('deep-snapshot-');

  it('is not used (the journal is replayed instead), as the deep line is refused', async () => {
    const store = createFileRunStore(dir.path);
    const plan = makePlan([write('a', 'a.txt')]);
    await runPlan(plan, { store, workspace: createMemoryWorkspace(), tools: builtinTools(), clock: new ManualClock(), idSource: () => 'deep' }).result;
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    writeFileSync(join(dir.path, 'deep.snapshot.json'), `{"seq":1,"state":${deep}}`);
    const loaded = await store.load('deep');
    assert.equal(loaded?.snapshot, undefined);
    assert.equal(replayJournal('deep', loaded!).plan?.id, plan.id);
  });
});
