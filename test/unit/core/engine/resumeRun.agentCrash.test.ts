import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { resumeRun } from '../../../../src/core/engine/resumeRun';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { RunHandle } from '../../../../src/core/engine/runOptions';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import type { LlmChatRequest, LlmChatResponse, LlmMessage } from '../../../../src/core/llm/llmTypes';
import type { Checkpoint, JournalEntry, RunStore } from '../../../../src/core/runStorePorts';
import type { LlmClient } from '../../../../src/core/servicePorts';
import type { WorkspaceFs } from '../../../../src/core/workspacePorts';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { undoRun } from '../../../../src/core/tools/undoRun';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace, type MemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { scriptedLlm } from '../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../support/randomPlans';

const addBar = { path: 'notes.txt', edits: [{ search: 'foo', replace: 'foo\nbar' }] };
const planOf = (edits: number) =>
  makePlan([makeStep('S1', { input: `Add ${edits} bar line(s) after foo in notes.txt, one edit each`, agent: 'editor' })], {
    agents: { editor: { prompt: 'You edit files.', tools: ['read_file', 'edit_file'] } },
  });
const barred = (edits: number): string => `foo${'\nbar'.repeat(edits)}\n`;
const toolMessages = (messages: readonly LlmMessage[] | undefined): number => (messages ?? []).filter((message) => message.role === 'tool').length;

/**
 * A model that adds `bar` once per turn for `edits` turns (an edit whose old text still matches after it), then answers:
 * deterministic, its answer a function of the conversation only.
 */
function barModel(edits: number): (request: LlmChatRequest) => Partial<LlmChatResponse> {
  return (request) => {
    const done = toolMessages(request.messages);
    if (done < edits) return { toolCalls: [{ id: `call-${done + 1}`, name: 'edit_file', arguments: JSON.stringify(addBar) }] };
    return { text: `Added ${edits} bar line(s).` };
  };
}

/** `barModel(edits)`, keeping a copy of each request's messages as sent; its call number `hangAt` never answers (until aborted). */
function model(edits: number, hangAt = 0): LlmClient & { sent: LlmMessage[][] } {
  const inner = scriptedLlm([barModel(edits)]);
  const sent: LlmMessage[][] = [];
  return {
    ...inner,
    sent,
    async chat(request) {
      sent.push([...request.messages]);
      return sent.length === hangAt ? killed(request.signal) : inner.chat(request);
    },
  };
}

/** Pending until `signal` aborts: the process died here, and nothing after it happens. */
function killed(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(new Error('killed')), { once: true }));
}

/** `workspace`, whose write of notes.txt number `at` lands and then never returns: the process died before it was settled. */
function dyingAfterWrite(workspace: WorkspaceFs, at: number): WorkspaceFs & { died: boolean } {
  let writes = 0;
  const dying = {
    ...workspace,
    died: false,
    async writeText(path: string, text: string, signal: AbortSignal, options?: Parameters<WorkspaceFs['writeText']>[3]): Promise<void> {
      await workspace.writeText(path, text, signal, options);
      if (path === 'notes.txt' && ++writes === at) {
        dying.died = true;
        return killed(signal);
      }
    },
  };
  return dying;
}

/** What a killed process leaves: its journal, its checkpoint log and the files. */
interface Disk {
  journal: RunStore;
  saved: Checkpoint[];
  files: MemoryWorkspace;
}

const common = { clock: new ManualClock(0, { autoAdvance: true }), tools: builtinTools(), approvalPolicy: 'commandsOnly' as const };

/**
 * Runs `start` on `disk` until `crashed()`, copies what a SIGKILL would leave then (the journal, the checkpoint log, the
 * files), and stops the original for good: what comes next works on the copies only.
 */
async function crashWhile(
  disk: Disk,
  crashed: () => boolean,
  start: (on: Disk & { checkpoints: ReturnType<typeof createMemoryCheckpointStore>; signal: AbortSignal }) => RunHandle,
): Promise<Disk> {
  const stop = new AbortController();
  const checkpoints = createMemoryCheckpointStore(disk.saved);
  const handle = start({ ...disk, checkpoints, signal: stop.signal });
  for (let turn = 0; !crashed(); turn++) {
    if (turn > 100_000) throw new Error('the run never got there');
    await new Promise((resolve) => setImmediate(resolve));
  }
  const journal = createMemoryRunStore();
  await journal.append('crash', (await disk.journal.load('crash'))?.entries ?? []);
  const copy = { journal, saved: await checkpoints.list('crash'), files: createMemoryWorkspace(disk.files.snapshot()) };
  stop.abort();
  await handle.result;
  return copy;
}

/** A run of `planOf(edits)` killed after its last edit landed: once journaled (its next model call out), or before its journal line. */
function crashedRun(edits: number, when: 'journaled' | 'unjournaled'): Promise<Disk> {
  const first = model(edits, when === 'journaled' ? edits + 1 : 0);
  const empty: Disk = { journal: createMemoryRunStore(), saved: [], files: createMemoryWorkspace({ 'notes.txt': 'foo\n' }) };
  const workspace = when === 'journaled' ? empty.files : dyingAfterWrite(empty.files, edits);
  // The hanging call's `model_requested` is stored before it is sent: everything before it is in the journal.
  return crashWhile(
    empty,
    () => (when === 'journaled' ? first.sent.length === edits + 1 : (workspace as { died: boolean }).died),
    ({ journal, checkpoints, signal }) =>
      runPlan(planOf(edits), {
        ...common,
        agentLimits: { timeoutMs: Infinity },
        llm: first,
        workspace,
        checkpoints,
        store: journal,
        idSource: () => 'crash',
        signal,
      }),
  );
}

function resume(disk: Disk, llm: LlmClient, maxTurns = 12, checkpoints = createMemoryCheckpointStore(disk.saved)): RunHandle {
  return resumeRun('crash', { ...common, agentLimits: { timeoutMs: Infinity, maxTurns }, workspace: disk.files, llm, store: disk.journal, checkpoints });
}

async function eventsOf(store: RunStore): Promise<RunEvent[]> {
  return ((await store.load('crash'))?.entries ?? []) as unknown as RunEvent[];
}

describe('resumeRun: an agent step cut off by a crash continues its conversation (attack: its model was asked again and an edit applied twice)', () => {
  for (const edits of [1, 2]) {
    for (const when of ['journaled', 'unjournaled'] as const) {
      it(`${edits} edit(s) foo → foo\\nbar, killed after the last change ${when === 'journaled' ? 'was journaled' : 'landed, before its journal line'}: each applied once, the model asked only for what follows`, async () => {
        const disk = await crashedRun(edits, when);
        assert.equal(disk.files.snapshot()['notes.txt'], barred(edits), 'killed after the change landed');
        const second = model(edits);
        const checkpoints = createMemoryCheckpointStore(disk.saved);
        const handle = resume(disk, second, 12, checkpoints);
        const resumed = await handle.result;
        assert.equal(resumed.status, 'completed', resumed.metadata.reason);
        // Before: with 2 edits the resumed agent started over, and its first replayed edit claimed both landed changes, so
        // its second applied again: foo\nbar\nbar\nbar.
        assert.equal(disk.files.snapshot()['notes.txt'], barred(edits), 'applied once each');
        assert.equal(second.sent.length, 1, 'the model is asked only for its next turn');
        assert.equal(toolMessages(second.sent[0]), edits, 'with the results of the calls its interrupted attempt made');
        const applied = Array.from({ length: edits }, () => ({ operation: 'edit_file', path: 'notes.txt' }));
        assert.deepEqual(resumed.results['S1'], { answer: `Added ${edits} bar line(s).`, changes: { applied, rejected: [], failed: [] } });
        const events = await eventsOf(disk.journal);
        assert.ok(events.some((event) => event.type === 'step_started' && event.continues === true));
        assert.deepEqual(handle.state().changedFiles, ['notes.txt']);
        assert.equal(events.filter((event) => event.type === 'file_changed').length, edits, 'each change reported once');
        // Every change the step made is Undo's, the ones a journaled result stood for too.
        const undone = await undoRun('crash', { workspace: disk.files, checkpoints });
        assert.deepEqual(undone.refused, []);
        assert.equal(disk.files.snapshot()['notes.txt'], 'foo\n');
      });
    }
  }

  it('killed again while continuing, it continues again from everything journaled', async () => {
    const disk = await crashedRun(2, 'unjournaled');
    // The resumed attempt re-runs the call without a result, asks its model once, and that call never answers.
    const second = model(3, 1);
    const again = await crashWhile(
      disk,
      () => second.sent.length === 1,
      ({ journal, checkpoints, signal, files }) =>
        resumeRun('crash', { ...common, agentLimits: { timeoutMs: Infinity }, workspace: files, llm: second, store: journal, checkpoints, signal }),
    );
    assert.equal(toolMessages(second.sent[0]), 2);
    const third = model(2);
    const resumed = await resume(again, third).result;
    assert.equal(resumed.status, 'completed', resumed.metadata.reason);
    assert.equal(again.files.snapshot()['notes.txt'], barred(2));
    assert.equal(third.sent.length, 1);
    assert.equal(toolMessages(third.sent[0]), 2);
  });

  it('the restored turns count against maxTurns: an attempt that used them all fails without asking its model', async () => {
    const disk = await crashedRun(2, 'journaled');
    const second = model(2);
    const resumed = await resume(disk, second, 2).result;
    assert.equal(second.sent.length, 0);
    assert.equal(resumed.status, 'failed');
    assert.match(resumed.steps['S1']?.error ?? '', /used all 2 turns/);
    assert.equal(disk.files.snapshot()['notes.txt'], barred(2));
  });

  it('a journal written before agent turns were journaled resumes as before: the agent starts over', async () => {
    const disk = await crashedRun(1, 'journaled');
    const old = createMemoryRunStore();
    const entries = ((await disk.journal.load('crash'))?.entries ?? []).filter((entry) => !['agent_turn', 'agent_tool_result'].includes(entry.type));
    await old.append(
      'crash',
      entries.map((entry, index): JournalEntry => ({ ...entry, seq: index + 1 })),
    );
    const second = model(1);
    const resumed = await resume({ ...disk, journal: old }, second).result;
    assert.equal(resumed.status, 'completed', resumed.metadata.reason);
    assert.equal(second.sent.length, 2, 'asked again from the start');
    assert.equal(toolMessages(second.sent[0]), 0);
    assert.equal(disk.files.snapshot()['notes.txt'], barred(1), 'its one edit is recognised in the file (reconcileInterrupted)');
  });
});
