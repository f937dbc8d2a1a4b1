import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { appendFileSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processAnswerSeal } from '../../../src/core/engine/answerSeals';
import { foldRunEvents } from '../../../src/core/engine/reduceRunEvent';
import { replayJournal } from '../../../src/core/engine/replayJournal';
import { resumeRun } from '../../../src/core/engine/resumeRun';
import { stampEvent, type RunEvent, type RunEventBody, type RunState } from '../../../src/core/engine/runEvents';
import { runPlan } from '../../../src/core/engine/runPlan';
import type { JournalEntry, RunStore } from '../../../src/core/runStorePorts';
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

  it('is not used (the journal is replayed instead), as the deep line is refused, even sealed with the user\'s key', async () => {
    const seal = processAnswerSeal();
    const store = createFileRunStore(dir.path, { seal });
    const plan = makePlan([write('a', 'a.txt')]);
    await runPlan(plan, { store, workspace: createMemoryWorkspace(), tools: builtinTools(), clock: new ManualClock(), idSource: () => 'deep' }).result;
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const json = `{"seq":1,"state":${deep}}`;
    writeFileSync(join(dir.path, 'deep.snapshot.json'), `${seal.mac(`deep\n${json}`)}\n${json}`);
    const loaded = await store.load('deep');
    assert.equal(loaded?.snapshot, undefined);
    assert.equal(replayJournal('deep', loaded!).plan?.id, plan.id);
  });
});

/*
 * PROMISE UNDER ATTACK: a snapshot only saves replay time; it never changes what a run shows. Its state is trusted as the
 * run's at its event, so one of the right shape that says otherwise than the journal (damaged, committed by a
 * repository in the CLI's run folder, copied from another run) must not be used.
 */
describe('attack: a snapshot of the right shape that says otherwise than the journal', () => {
  const dir = temporaryDirectory('forged-snapshot-');
  const plan = makePlan([makeStep('a', { maxAttempts: 1 }), makeStep('b', { dependsOn: ['a'] })]);
  const bodies: RunEventBody[] = [
    { type: 'run_started', plan },
    { type: 'step_started', stepId: 'a', attempt: 1 },
    { type: 'step_failed', stepId: 'a', attempt: 1, error: 'broke', disposition: 'fail' },
    { type: 'run_cancelled', reason: 'killed', interrupted: true },
  ];
  const journal = (runId: string) => bodies.map((body, index) => stampEvent(body, runId, index + 1, 10 * (index + 1)) as unknown as JournalEntry);
  /** The run's true state at its last event with step a completed instead: every field of the right shape. */
  const forgedOf = (runId: string): RunState => {
    const truth = foldRunEvents(journal(runId) as unknown as RunEvent[]);
    return { ...truth, steps: { ...truth.steps, a: { id: 'a', status: 'completed', attempts: 1, result: 'forged' } }, results: { a: 'forged' } };
  };
  const shows = async (store: RunStore, runId: string) => replayJournal(runId, (await store.load(runId))!).steps.a?.status;

  it('its own sealed snapshot is used (the control)', async () => {
    const store = createFileRunStore(dir.path, { seal: processAnswerSeal() });
    await store.append('own', journal('own'));
    const truth = foldRunEvents(journal('own') as unknown as RunEvent[]);
    await store.writeSnapshot('own', { seq: 4, time: 40, state: truth });
    assert.equal((await store.load('own'))?.snapshot?.seq, 4);
    assert.equal(await shows(store, 'own'), 'failed');
  });

  it('written without a seal (a repository committed it, or an older Task Planner wrote it), it is left out', async () => {
    const store = createFileRunStore(dir.path, { seal: processAnswerSeal() });
    await store.append('bare', journal('bare'));
    writeFileSync(join(dir.path, 'bare.snapshot.json'), JSON.stringify({ seq: 4, time: 40, state: forgedOf('bare') }));
    assert.equal((await store.load('bare'))?.snapshot, undefined);
    assert.equal(await shows(store, 'bare'), 'failed');
  });

  it('sealed under another key (another user, another machine), it is left out', async () => {
    const store = createFileRunStore(dir.path, { seal: processAnswerSeal() });
    await store.append('theirs', journal('theirs'));
    const theirs = createFileRunStore(dir.path, { seal: { mac: (text) => createHmac('sha256', 'their key').update(text).digest('hex') } });
    await theirs.writeSnapshot('theirs', { seq: 4, time: 40, state: forgedOf('theirs') });
    assert.equal((await theirs.load('theirs'))?.snapshot?.seq, 4, 'their own store takes it');
    assert.equal((await store.load('theirs'))?.snapshot, undefined);
    assert.equal(await shows(store, 'theirs'), 'failed');
  });

  it('sealed for another run and copied over, or changed by one byte after sealing, it is left out', async () => {
    const store = createFileRunStore(dir.path, { seal: processAnswerSeal() });
    await store.append('copied', journal('copied'));
    await store.append('donor', journal('donor'));
    await store.writeSnapshot('donor', { seq: 4, time: 40, state: { ...forgedOf('copied') } });
    copyFileSync(join(dir.path, 'donor.snapshot.json'), join(dir.path, 'copied.snapshot.json'));
    assert.equal((await store.load('copied'))?.snapshot, undefined);
    assert.equal(await shows(store, 'copied'), 'failed');

    await store.append('flipped', journal('flipped'));
    await store.writeSnapshot('flipped', { seq: 4, time: 40, state: foldRunEvents(journal('flipped') as unknown as RunEvent[]) });
    const file = join(dir.path, 'flipped.snapshot.json');
    const text = readFileSync(file, 'utf8');
    assert.match(text, /"status":"failed"/);
    writeFileSync(file, text.replace('"status":"failed"', '"status":"complet"'));
    assert.equal((await store.load('flipped'))?.snapshot, undefined);
    assert.equal(await shows(store, 'flipped'), 'failed');
  });
});
