import assert from 'node:assert/strict';
import { z } from 'zod';
import { withReferenceTexts } from '../../../../../src/core/engine/executors/referenceTexts';
import { runPlan } from '../../../../../src/core/engine/runPlan';
import type { RunEvent } from '../../../../../src/core/engine/runEvents';
import { parsePlan } from '../../../../../src/core/plan/parsePlan';
import type { Plan } from '../../../../../src/core/plan/planSchema';
import { builtinTools } from '../../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../../src/core/tools/createToolRegistry';
import type { Tool } from '../../../../../src/core/tools/tool';
import { textCaps } from '../../../../../src/core/text/capText';
import { ManualClock } from '../../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../../fakes/scriptedInteraction';
import { makePlan, makeStep } from '../../../../support/randomPlans';

const tools = createToolRegistry(builtinTools());

function planOf(json: unknown): Plan {
  const parsed = parsePlan(json);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.errors.join('\n'));
  return parsed.plan;
}

async function run(plan: Plan, files: Record<string, string>) {
  const workspace = createMemoryWorkspace(files);
  const events: RunEvent[] = [];
  const handle = runPlan(plan, { tools, workspace, interaction: ScriptedInteraction.approvingAll(), clock: new ManualClock(0, { autoAdvance: true }) });
  handle.events.subscribe((event) => events.push(event));
  const result = await handle.result;
  return { result, files: workspace.snapshot(), events };
}

const data = '{\n  "name": "data",\n  "items": [1, 2, 3]\n}\n';

describe('"$<id>" references in tool arguments', () => {
  it('the plan read_file data.json then write_file processed.json with content "$step_1" writes the text of data.json', async () => {
    const plan = planOf({
      objective: 'Copy data.json to processed.json',
      steps: [
        { id: 'step_1', tool: 'read_file', args: { path: 'data.json' } },
        { id: 'step_2', tool: 'write_file', args: { path: 'processed.json', content: '$step_1' } },
      ],
    });
    // Written without dependsOn, as planners often do: the reference orders the steps.
    assert.deepEqual(plan.steps[1]?.dependsOn, ['step_1']);
    const { result, files } = await run(plan, { 'data.json': data });
    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.equal(files['processed.json'], data);
  });

  it('a path into a result gives that value; a number where text is expected gives its text', async () => {
    const plan = planOf({
      steps: [
        { id: 'list', tool: 'list_files', args: {} },
        { id: 'count', tool: 'write_file', args: { path: 'count.txt', content: '$list.total' }, dependsOn: ['list'] },
        { id: 'all', tool: 'write_file', args: { path: 'all.txt', content: '$list.files' }, dependsOn: ['list'] },
        { id: 'first', tool: 'write_file', args: { path: 'first.txt', content: '$list.files.0' }, dependsOn: ['list'] },
        { id: 'whole', tool: 'write_file', args: { path: 'whole.txt', content: '$list' }, dependsOn: ['list'] },
      ],
    });
    const { result, files } = await run(plan, { 'a.txt': 'A', 'b.txt': 'B' });
    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.equal(files['count.txt'], '2');
    assert.equal(files['all.txt'], '["a.txt","b.txt"]');
    assert.equal(files['first.txt'], 'a.txt');
    // A tool without its own text (list_files) gives its result's JSON.
    assert.equal(files['whole.txt'], JSON.stringify(result.results['list']));
  });

  it('an unresolved "$ghost" is a step warning, like an unresolved template, and stays as written', async () => {
    const plan = makePlan([
      makeStep('W', { kind: 'tool', agent: undefined, input: undefined, tool: 'write_file', args: { path: 'out.txt', content: '$ghost' } }),
    ]);
    const { result, files, events } = await run(plan, {});
    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.equal(files['out.txt'], '$ghost');
    const warnings = events.flatMap((event) => (event.type === 'step_warning' ? [event.message] : []));
    assert.deepEqual(warnings, ['The placeholder $ghost has no result to insert and stays verbatim.']);
    assert.deepEqual(result.metadata.warnings, ['W: The placeholder $ghost has no result to insert and stays verbatim.']);
  });

  it('names nothing through inherited keys: "$__proto__.x", "$step_1.constructor", "$step_1.content.length" stay as written and warn', async () => {
    const plan = planOf({
      steps: [
        { id: 'step_1', tool: 'read_file', args: { path: 'data.json' } },
        {
          id: 'step_2',
          tool: 'run_command',
          args: { argv: ['echo', '$__proto__.x', '$step_1.constructor', '$step_1.content.length', '$step_1.toString'] },
          dependsOn: ['step_1'],
        },
      ],
    });
    const workspace = createMemoryWorkspace({ 'data.json': data });
    const events: RunEvent[] = [];
    const seen: string[][] = [];
    const handle = runPlan(plan, {
      tools,
      workspace,
      interaction: ScriptedInteraction.approvingAll(),
      clock: new ManualClock(0, { autoAdvance: true }),
      commandRunner: {
        describeCwd: (cwd) => Promise.resolve(cwd),
        run: (spec) => {
          seen.push([...spec.argv]);
          return Promise.resolve({ exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 0 });
        },
      },
    });
    handle.events.subscribe((event) => events.push(event));
    const result = await handle.result;
    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.deepEqual(seen, [['echo', '$__proto__.x', '$step_1.constructor', '$step_1.content.length', '$step_1.toString']]);
    assert.equal(events.filter((event) => event.type === 'step_warning').length, 4);
  });

  it('follows a long dotted path only through own keys, and a step id with dots wins by its longest prefix', async () => {
    const deep: Record<string, unknown> = {};
    let cursor = deep;
    for (let index = 0; index < 200; index++) {
      const next: Record<string, unknown> = {};
      cursor['k'] = next;
      cursor = next;
    }
    cursor['k'] = 'bottom';
    const schema = z.object({ text: z.string() });
    const path = `$v1.2${'.k'.repeat(201)}`;
    const context = { written: { text: path }, results: () => ({ 'v1.2': deep }), plan: makePlan([]), tools };
    assert.deepEqual(withReferenceTexts(schema, { text: 'bottom' }, context), { text: 'bottom' });
    // A cyclic-looking path: a key that names the same object again and again resolves like any other path.
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = cyclic;
    const loop = { written: { text: `$c${'.self'.repeat(50)}` }, results: () => ({ c: cyclic }), plan: makePlan([]), tools };
    assert.deepEqual(withReferenceTexts(schema, { text: cyclic }, loop), { text: '[object Object]' });
  });

  it('a string parameter given a reference into a 5 MB result gets a text capped at the result cap', () => {
    const big = 'x'.repeat(5 * 1024 * 1024);
    const schema = z.object({ text: z.string() });
    const context = { written: { text: '$big.data' }, results: () => ({ big: { data: [big] } }), plan: makePlan([]), tools };
    const out = withReferenceTexts(schema, { text: [big] }, context) as { text: string };
    assert.equal(out.text.length, textCaps.result);
    assert.match(out.text, /more characters cut\)$/);
  });

  it('leaves a literal non-string alone (the schema still refuses it) and does not change its input', () => {
    const schema = z.object({ text: z.string(), list: z.array(z.string()) });
    const input = { text: 5, list: ['a', { n: 1 }] };
    const context = { written: { text: 5, list: ['a', '$r'] }, results: () => ({ r: { n: 1 } }), plan: makePlan([]), tools };
    assert.deepEqual(withReferenceTexts(schema, input, context), { text: 5, list: ['a', '{"n":1}'] });
    assert.deepEqual(input, { text: 5, list: ['a', { n: 1 }] });
  });
});

describe('withReferenceTexts on its own', () => {
  const fetchJson = { name: 'fetch_json', description: 'Fetches JSON', resultText: (value: unknown) => `TEXT ${JSON.stringify(value)}` } as unknown as Tool;
  const registry = createToolRegistry([fetchJson]);
  const plan = makePlan([makeStep('first'), makeStep('fetch', { kind: 'tool', tool: 'fetch_json', args: {} }), makeStep('think')]);
  const results = { first: { v: 1 }, fetch: { data: [1, 2] }, think: { idea: 'x' } };
  const context = (written: Record<string, unknown>) => ({ written, results: () => results, plan, tools: registry });
  const file = z.object({ path: z.string(), content: z.string() });

  it('gives a whole tool result the tool\'s own text, and a path into it or another step\'s result its JSON', () => {
    assert.deepEqual(withReferenceTexts(file, { path: 'a', content: results.fetch }, context({ path: 'a', content: '$fetch' })), { path: 'a', content: 'TEXT {"data":[1,2]}' });
    assert.deepEqual(withReferenceTexts(file, { path: 'a', content: results.fetch.data }, context({ path: 'a', content: '$fetch.data' })), { path: 'a', content: '[1,2]' });
    assert.deepEqual(withReferenceTexts(file, { path: 'a', content: results.think }, context({ path: 'a', content: '$think' })), { path: 'a', content: '{"idea":"x"}' });
  });

  it('leaves alone a literal of the wrong type, a reference that leads nowhere, a parameter that is not only text, one the arguments lack, and a written form without the path', () => {
    const cases: [z.ZodType, Record<string, unknown>, Record<string, unknown>][] = [
      [file, { path: 'a', content: 5 }, { path: 'a', content: 5 }],
      [file, { path: 'a', content: { v: 1 } }, { path: 'a', content: '$ghost' }],
      [z.object({ count: z.number() }), { count: { v: 1 } }, { count: '$first' }],
      [file, { path: 'a' }, { path: 'a', content: '$first' }],
      [file, { path: 'a', content: { v: 1 } }, { path: 'a' }],
      [z.string(), { v: 1 }, { v: 1 }],
      [z.object({ files: z.array(file) }), { files: [{ path: 'b', content: { v: 1 } }] }, { files: null }],
      [z.object({ content: z.union([z.string(), z.number()]) }), { content: { v: 1 } }, { content: '$first' }],
    ];
    for (const [schema, input, written] of cases) assert.equal(withReferenceTexts(schema, input, context(written)), input, JSON.stringify(written));
  });

  it('replaces a reference inside lists and objects, copying only the containers on the way', () => {
    const schema = z.object({ files: z.array(file), mode: z.string() });
    const kept = { path: 'a', content: 'x' };
    const input = { files: [kept, { path: 'b', content: { v: 1 } }], mode: 'w' };
    const changed = withReferenceTexts(schema, input, context({ files: [kept, { path: 'b', content: '$first' }], mode: 'w' })) as typeof input;
    assert.deepEqual(changed, { files: [kept, { path: 'b', content: '{"v":1}' }], mode: 'w' });
    assert.equal(changed.files[0], kept);
    assert.deepEqual(input.files[1], { path: 'b', content: { v: 1 } });
  });
});
