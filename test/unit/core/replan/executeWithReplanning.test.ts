import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunEvent, RunState } from '../../../../src/core/engine/runEvents';
import { reduceExecutionEvent } from '../../../../src/core/replan/reduceExecutionEvent';
import { runSummary } from '../../../../src/core/view/runSummary';
import { createOpenAiClient } from '../../../../src/node/openAiClient';
import { generatePlan } from '../../../../src/core/planner/generatePlan';
import { executeWithReplanning } from '../../../../src/core/replan/executeWithReplanning';
import type { ReplanRecord } from '../../../../src/core/engine/replanRecord';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { readFileTool } from '../../../../src/core/tools/readFileTool';
import type { Tool } from '../../../../src/core/tools/tool';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { FakeOpenAiServer, type FakeRequest } from '../../../fakes/fakeOpenAiServer';
import { ManualClock } from '../../../fakes/manualClock';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makePlan, makeStep } from '../../../support/randomPlans';

const tools = createToolRegistry([readFileTool, writeFileTool] as Tool[]);
const start = Date.parse('2026-03-01T09:00:00Z');
const allText = (request: FakeRequest | undefined): string => (request?.body?.messages ?? []).map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content))).join('\n');

describe('executeWithReplanning', function () {
  this.timeout(20_000);
  let server: FakeOpenAiServer;
  let clock: ManualClock;
  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
    clock = new ManualClock(start, { autoAdvance: true });
  });
  afterEach(() => server.close());
  const llm = () => createOpenAiClient({ baseURL: server.baseURL, apiKey: 'sk-test', model: 'gpt-4o-mini', clock, maxAttempts: 1 });

  describe('end to end against the fake OpenAI server', () => {
    let root: string;
    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'replan-e2e-'));
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it('plans a request, writes files after approvals, retries a failed verification with its diagnosis, replans a failed step with the trial history, and completes', async () => {
      const plannerPlan = {
        objective: 'ignored',
        agents: { writer: { prompt: 'You write files in the workspace.', tools: ['read_file', 'write_file'] } },
        steps: [
          { id: 'S1', title: 'Write greeting', kind: 'agent', agent: 'writer', dependsOn: [], input: 'Write hello.txt with a greeting and name the file in your answer', verification: "result.answer.includes('hello.txt')", onVerificationFailure: 'retry', maxAttempts: 2 },
          { id: 'S2', title: 'Read the data', kind: 'tool', tool: 'read_file', args: { path: 'data.json' }, dependsOn: ['S1'], onFailure: 'replan' },
          { id: 'S3', title: 'Summarise', kind: 'agent', agent: 'writer', dependsOn: ['S2'], input: 'Write summary.txt from {{results.S2}}' },
        ],
      };
      const repairPlan = {
        objective: 'ignored',
        steps: [
          { id: 'S1', title: 'Write greeting', kind: 'agent', dependsOn: [] },
          { id: 'S4', title: 'Summarise without data', kind: 'agent', agent: 'writer', dependsOn: ['S1'], input: 'There is no data.json: write summary.txt saying so, based on {{results.S1}}' },
        ],
      };
      server.enqueue(
        { kind: 'message', content: JSON.stringify(plannerPlan) },
        // S1, attempt 1: writes hello.txt, but its answer fails verification.
        { kind: 'message', toolCalls: [{ name: 'write_file', arguments: { path: 'hello.txt', content: 'Hello, world!\n' } }] },
        { kind: 'message', content: 'Done.' },
        // S1, attempt 2.
        { kind: 'message', content: 'Wrote hello.txt with a greeting.' },
        // S2 (a tool step) fails: data.json does not exist. The replanner answers:
        { kind: 'message', content: JSON.stringify(repairPlan) },
        // S4.
        { kind: 'message', toolCalls: [{ name: 'write_file', arguments: { path: 'summary.txt', content: 'No data was available.\n' } }] },
        { kind: 'message', content: 'Wrote summary.txt.' },
      );
      const client = llm();
      const generated = await generatePlan('Greet in hello.txt and summarise data.json into summary.txt', { llm: client, tools, signal: new AbortController().signal, clock });
      assert.deepEqual(generated.diagnostics.filter((diagnostic) => diagnostic.severity === 'error'), []);
      assert.deepEqual(generated.plan.steps.map((step) => step.id), ['S1', 'S2', 'S3']);

      const interaction = new ScriptedInteraction({ approvals: [{ approved: true }, { approved: true }] });
      const events: RunEvent[] = [];
      const result = await executeWithReplanning(generated.plan, generated.plan.objective, {
        llm: client,
        tools,
        workspace: createNodeWorkspace(root),
        interaction,
        clock,
        maxConcurrency: 1,
        agentLimits: { timeoutMs: Infinity },
        idSource: () => 'run-e2e',
        onEvent: (event) => events.push(event),
      });

      assert.equal(result.status, 'completed', result.metadata.reason);
      assert.equal(result.runId, 'run-e2e-replan-1');
      assert.equal(readFileSync(join(root, 'hello.txt'), 'utf8'), 'Hello, world!\n');
      assert.equal(readFileSync(join(root, 'summary.txt'), 'utf8'), 'No data was available.\n');
      assert.deepEqual(interaction.approvals().map((request) => (request.kind === 'file' ? request.proposal.path : '')), ['hello.txt', 'summary.txt']);

      const requests = server.chatRequests;
      assert.equal(requests.length, 7, 'S1 is not re-run after the replan');
      assert.doesNotMatch(allText(requests[1]), /failed verification/);
      assert.match(allText(requests[3]), /Your previous attempt failed verification: .*result\.answer\.includes\('hello\.txt'\)/, 'the retry carries the diagnosis');
      const replan = allText(requests[4]);
      assert.match(replan, /You are the replanner/);
      assert.match(replan, /Completed steps \(keep them, with these ids\):\n- S1 \(Write greeting\): Wrote hello\.txt with a greeting\./);
      assert.match(replan, /Failed steps:\n- S2 \(Read the data\)\n {2}approach: tool read_file with args \{"path":"data\.json"\}\n {2}error: .*data\.json/);
      assert.match(replan, /Trial history \(every earlier failed attempt; do not repeat these approaches\):\n1\. 2026-03-01T09:00:00\.000Z step S1, attempt 1\n {3}approach: agent writer.*\n {3}error: [\s\S]*?\n {3}diagnosis: .*hello\.txt/);
      assert.match(replan, /2\. 2026-03-01T09:00:01\.000Z step S2, attempt 1\n {3}approach: tool read_file with args \{"path":"data\.json"\}/);
      assert.match(replan, /S3 \(Summarise\)/, 'the steps that did not run are listed');
      assert.equal(requests[4]?.body?.response_format?.type, 'json_schema');
      assert.match(allText(requests[5]), /There is no data\.json/);

      const meta = result.metadata;
      assert.equal(meta.replanCount, 1);
      assert.equal(meta.executionAttempts, 4, 'S1 twice, S2 once, S4 once');
      assert.ok(meta.totalDurationMs >= 1000, `the retry backoff is part of the duration (${meta.totalDurationMs})`);
      const [record] = meta.replanHistory;
      assert.deepEqual([record?.stepIds, record?.keptStepIds, record?.newStepIds, record?.failedRunId, record?.planVersion], [['S2'], ['S1'], ['S4'], 'run-e2e', 2]);
      assert.deepEqual(record?.trials.map((trial) => [trial.stepId, trial.attempt]), [['S1', 1], ['S2', 1]]);
      assert.equal(meta.llmUsage?.requests, 6, 'agents, retry and replanner (the planner call is generatePlan\'s own)');
      // The fake reports 10 + 5 tokens a call, which the client raises to one token per 32 characters of the prompt it sent.
      assert.ok((meta.llmUsage?.totalTokens ?? 0) >= 6 * 15, String(meta.llmUsage?.totalTokens));
      assert.equal(meta.llmUsage?.totalTokens, (meta.llmUsage?.promptTokens ?? 0) + (meta.llmUsage?.completionTokens ?? 0));
      assert.ok((meta.llmUsage?.costUsd ?? 0) > 0);
      assert.equal(result.steps['S1']?.status, 'completed');
      assert.deepEqual(Object.keys(result.results).sort(), ['S1', 'S4']);
      const types = events.map((event) => event.type);
      assert.ok(types.indexOf('replan_started') < types.indexOf('replan_completed'));
      assert.equal(types.filter((type) => type === 'run_started').length, 2);
      assert.ok(!existsSync(join(root, 'data.json')));
    });
  });

  describe('limits', () => {
    const failing = makePlan([makeStep('ok'), makeStep('bad', { dependsOn: ['ok'], onFailure: 'replan' })]);
    const stepRunner = async (step: { id: string }) => {
      if (step.id.startsWith('bad')) throw new Error(`${step.id} cannot work`);
      return `${step.id} done`;
    };
    const sameAgain = { kind: 'message' as const, content: JSON.stringify({ objective: 'x', steps: [{ id: 'ok', title: 'ok', kind: 'agent', dependsOn: [] }, { id: 'bad', title: 'again', kind: 'agent', dependsOn: ['ok'], onFailure: 'replan' }] }) };

    it('stops when a step asks for more than maxReplanAttempts repair plans', async () => {
      server.on(() => true, sameAgain);
      const result = await executeWithReplanning(failing, 'objective', { llm: llm(), stepRunner, clock });
      assert.equal(result.status, 'failed');
      assert.equal(result.metadata.replanCount, 2);
      assert.match(result.metadata.reason ?? '', /step bad already had 2 repair plans \(maxReplanAttempts\)/);
      assert.equal(server.chatRequests.length, 2);
      assert.equal(result.metadata.executionAttempts, 4, 'ok once, bad three times; ok is never re-run');
    });

    it('stops when maxTotalReplans is used up', async () => {
      server.on(() => true, sameAgain);
      const result = await executeWithReplanning(failing, 'objective', { llm: llm(), stepRunner, clock, maxTotalReplans: 1 });
      assert.equal(result.metadata.replanCount, 1);
      assert.match(result.metadata.reason ?? '', /limit of 1 repair plans per run is used up/);
    });

    it('sends an invalid repair plan back once with its validation errors', async () => {
      server.enqueue(
        { kind: 'message', content: JSON.stringify({ objective: 'x', steps: [{ id: 'fix', title: 'fix', kind: 'tool', tool: 'teleport', dependsOn: ['ghost'] }] }) },
        { kind: 'message', content: JSON.stringify({ objective: 'x', steps: [{ id: 'fix', title: 'fix', kind: 'agent', dependsOn: ['ok'] }] }) },
      );
      const result = await executeWithReplanning(failing, 'objective', { llm: llm(), stepRunner, clock });
      assert.equal(result.status, 'completed', result.metadata.reason);
      const second = allText(server.chatRequests[1]);
      assert.match(second, /Your reply could not be used/);
      assert.match(second, /teleport/);
      assert.match(second, /ghost/);
      assert.equal((result.metadata.replanHistory[0] as ReplanRecord).repaired, true);
      assert.deepEqual(Object.keys(result.results).sort(), ['fix', 'ok']);
    });

    it('shows the replanner the workspace\'s skills and sends back a repair plan naming one it does not have', async () => {
      const skill = { name: 'house-style', description: 'How pages are styled here.', tags: [], source: '.github/skills/house-style/SKILL.md', text: 'Use tabs.', bytes: 9 };
      server.enqueue(
        { kind: 'message', content: JSON.stringify({ objective: 'x', steps: [{ id: 'fix', title: 'fix', kind: 'agent', dependsOn: ['ok'], skills: ['made-up'] }] }) },
        { kind: 'message', content: JSON.stringify({ objective: 'x', steps: [{ id: 'fix', title: 'fix', kind: 'agent', dependsOn: ['ok'], skills: ['house-style'] }] }) },
      );
      const capabilities = { instructions: [], skills: [skill], diagnostics: [] };
      const result = await executeWithReplanning(failing, 'objective', { llm: llm(), stepRunner, clock, capabilities });
      assert.equal(result.status, 'completed', result.metadata.reason);
      assert.match(allText(server.chatRequests[0]), /- house-style: How pages are styled here\./);
      assert.match(allText(server.chatRequests[1]), /made-up.*available: house-style/s);
    });

    it('reports a repair plan still invalid after the second answer, and replanning without a model', async () => {
      const invalid = { kind: 'message' as const, content: JSON.stringify({ objective: 'x', steps: [{ id: 'fix', title: 'fix', kind: 'tool', tool: 'teleport', dependsOn: [] }] }) };
      server.enqueue(invalid, invalid);
      const result = await executeWithReplanning(failing, 'objective', { llm: llm(), stepRunner, clock });
      assert.equal(result.status, 'failed');
      assert.match(result.metadata.reason ?? '', /No repair plan could be made, so the run stops here: .*teleport/);
      const none = await executeWithReplanning(failing, 'objective', { stepRunner, clock });
      assert.match(none.metadata.reason ?? '', /replanning needs a language model/);
    });

    it('says in the views\' state that the repair plan failed and why, not only that one was asked for (issue 28 item 5)', async () => {
      const invalid = { kind: 'message' as const, content: JSON.stringify({ objective: 'x', steps: [{ id: 'fix', title: 'fix', kind: 'tool', tool: 'teleport', dependsOn: [] }] }) };
      server.enqueue(invalid, invalid);
      let state: RunState | undefined;
      await executeWithReplanning(failing, 'objective', { llm: llm(), stepRunner, clock, onEvent: (event) => (state = reduceExecutionEvent(state, event)) });
      assert.equal(state?.status, 'failed');
      assert.match(state?.reason ?? '', /Step bad failed and asked for a repair plan\. No repair plan could be made, so the run stops here: .*teleport/);
      const ended: RunState | undefined = state;
      assert.ok(ended);
      assert.match(runSummary(ended).reason ?? '', /No repair plan could be made/);
      let none: RunState | undefined;
      await executeWithReplanning(failing, 'objective', { stepRunner, clock, onEvent: (event) => (none = reduceExecutionEvent(none, event)) });
      assert.match(none?.reason ?? '', /No repair plan was made: replanning needs a language model/);
    });

    it('keeps the failed step and the steps a repair dropped in the views\' state, with how they ended (issue 28 item 5)', async () => {
      const plan = makePlan([makeStep('ok'), makeStep('bad', { dependsOn: ['ok'], onFailure: 'replan' }), makeStep('after', { dependsOn: ['bad'] }), makeStep('kept', { dependsOn: ['bad'] })]);
      server.enqueue({
        kind: 'message',
        content: JSON.stringify({
          objective: 'x',
          steps: [
            { id: 'ok', title: 'ok', kind: 'agent', dependsOn: [] },
            { id: 'fix', title: 'fix', kind: 'agent', dependsOn: ['ok'] },
            { id: 'kept', title: 'kept', kind: 'agent', dependsOn: ['fix'] },
          ],
        }),
      });
      let state: RunState | undefined;
      const result = await executeWithReplanning(plan, 'objective', { llm: llm(), stepRunner, clock, onEvent: (event) => (state = reduceExecutionEvent(state, event)) });
      assert.equal(result.status, 'completed', result.metadata.reason);
      assert.deepEqual(state?.plan?.steps.map((step) => step.id), ['ok', 'fix', 'kept']);
      assert.deepEqual(
        state?.replacedSteps?.map((replaced) => [replaced.planVersion, replaced.step.id, replaced.state.status]),
        [
          [plan.version, 'bad', 'failed'],
          [plan.version, 'after', 'skipped'],
        ],
        'the failed step and the one the repair dropped stay; the completed and the still-to-do steps it kept do not repeat',
      );
      assert.match(state?.replacedSteps?.[0]?.state.error ?? '', /bad cannot work/);
    });

    it('does not replan a run that failed for another reason', async () => {
      const plan = makePlan([makeStep('bad-stop'), makeStep('bad', { onFailure: 'replan' })]);
      const result = await executeWithReplanning(plan, 'objective', { llm: llm(), stepRunner, clock, maxConcurrency: 1 });
      assert.equal(result.status, 'failed');
      assert.equal(result.metadata.replanCount, 0);
      assert.equal(server.chatRequests.length, 0);
    });
  });
});
