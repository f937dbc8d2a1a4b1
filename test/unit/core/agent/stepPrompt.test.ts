import assert from 'node:assert/strict';
import { buildStepPrompt, defaultStepPromptBudget, stepPromptHead, stepPromptSectionOrder } from '../../../../src/core/agent/stepPrompt';
import { countTokens } from '../../../../src/core/llm/tokenCount';
import { makeStep } from '../../../support/randomPlans';

const numbered = (size: number) => ({
  steps: Array.from({ length: size }, (_, index) =>
    makeStep(`S${String(index + 1).padStart(3, '0')}`, { dependsOn: index > 0 ? [`S${String(index).padStart(3, '0')}`] : [], title: `Do part ${index + 1} of the work` }),
  ),
});

describe('buildStepPrompt: layout from the most stable to the most volatile part', () => {
  const steps = ['S1', 'S2', 'S3', 'S4', 'S5'].map((id, index) => makeStep(id, { title: `Title ${id}`, dependsOn: index === 3 ? ['S2'] : [] }));

  it('sends objective, outline, summary, live status, dependency results, the step and its attachments, in that order', () => {
    const prompt = buildStepPrompt({
      objective: '  Ship it  ', plan: { steps }, statuses: { S1: 'completed', S3: 'failed' }, summary: ' [S1] done ', step: { id: 'S4', title: 't', dependsOn: ['S2'] },
      depends: { S2: 'two' }, input: '  Do it \n', extra: { attachments: '## Attached\nfile a' },
    });
    assert.equal(
      prompt.text,
      '## Objective\nShip it\n\n## Plan\n5 steps, in plan order:\n- S1 Title S1\n- S2 Title S2\n- S3 Title S3\n- S4 Title S4\n- S5 Title S5\n\n## What happened so far\n[S1] done\n\n' +
        '## Where the run stands\n5 steps: 1 completed, 3 pending, 1 failed\n- S2 [pending] (this step depends on it)\n→ S4 [pending]\n\n' +
        '## Results of the steps this one depends on\n### S2\ntwo\n\n## Your step: S4\nDo it\n\n## Attached\nfile a',
    );
    assert.deepEqual(stepPromptSectionOrder, ['objective', 'outline', 'summary', 'status', 'dependencies', 'step', 'attachments']);
    assert.equal(prompt.tokens, countTokens(prompt.text));
  });

  it('leaves out an empty summary, dependencies and attachments', () => {
    const prompt = buildStepPrompt({ objective: 'o', plan: { steps }, statuses: {}, summary: '  ', step: { id: 'S2', title: 't', dependsOn: [] }, depends: {}, input: 'i', extra: { attachments: ' \n' } });
    assert.deepEqual([prompt.summary, prompt.dependencies], ['', '']);
    assert.equal(prompt.text.split('\n\n').map((section) => section.split('\n')[0]).join(' | '), '## Objective | ## Plan | ## Where the run stands | ## Your step: S2');
    assert.ok(prompt.text.endsWith('## Your step: S2\ni'));
  });

  it('starts every step prompt of a run with the same head, whatever the statuses, the step and the summary', () => {
    const plan = numbered(40);
    const head = stepPromptHead('Ship it', plan);
    const first = buildStepPrompt({ objective: 'Ship it', plan, statuses: {}, summary: '', step: plan.steps[0]!, depends: {}, input: 'a' });
    const later = buildStepPrompt({ objective: 'Ship it', plan, statuses: { S001: 'completed', S002: 'failed', S030: 'running' }, summary: '[S001] x', step: plan.steps[29]!, depends: { S029: 'r' }, input: 'b' });
    assert.equal(first.head, head);
    assert.equal(later.head, head);
    assert.ok(first.text.startsWith(`${head}\n\n`) && later.text.startsWith(`${head}\n\n## What happened so far\n[S001] x\n\n## Where the run stands\n`));
    assert.doesNotMatch(head, /→|\[(pending|completed|running|failed)\]/, 'no status nor marker in the stable head');
  });

  it('lists the same first steps of a long plan for every step, and puts the step and the steps it is linked to, titled when unlisted, in the live status', () => {
    const plan = numbered(300);
    const at = (id: string) => buildStepPrompt({ objective: 'o', plan, statuses: {}, summary: '', step: plan.steps.find((step) => step.id === id)!, depends: {}, input: 'i', budget: { outline: 80, status: 80 } });
    const [early, middle] = [at('S002'), at('S150')];
    assert.equal(early.outline, middle.outline);
    assert.match(middle.outline, /^300 steps, in plan order:\n- S001 Do part 1 of the work\n[\s\S]*\n\(\d+ more steps not listed here\)$/);
    assert.equal(early.status, '300 steps: 300 pending\n- S001 [pending] (this step depends on it)\n→ S002 [pending]\n- S003 [pending] (depends on this step)', 'listed steps get no title again');
    assert.equal(
      middle.status,
      '300 steps: 300 pending\n- S149 [pending] (this step depends on it) Do part 149 of the work\n→ S150 [pending] Do part 150 of the work\n- S151 [pending] (depends on this step) Do part 151 of the work',
    );
    assert.ok(countTokens(middle.status) <= 80 && countTokens(middle.outline) <= 80);
  });

  it('shows the step, what it depends on and what depends on it, in that priority and in plan order, within its budget', () => {
    const many = Array.from({ length: 40 }, (_, index) => makeStep(`S${index + 1}`, { title: 'word '.repeat(40), dependsOn: index === 30 ? ['S20'] : [] }));
    const status = (budget: number) =>
      buildStepPrompt({ objective: 'o', plan: { steps: many }, statuses: { S5: 'completed' }, summary: '', step: { id: 'S20', title: 't', dependsOn: ['S5'] }, depends: {}, input: 'i', budget: { outline: 20, status: budget } }).status;
    const title = `${'word '.repeat(23).trim()}…`;
    assert.equal(status(150), `40 steps: 39 pending, 1 completed\n- S5 [completed] (this step depends on it) ${title}\n→ S20 [pending] ${title}\n- S31 [pending] (depends on this step) ${title}`);
    assert.equal(status(60), `40 steps: 39 pending, 1 completed\n→ S20 [pending] ${title}\n(2 more related steps not shown)`);
  });

  it('keeps each title on one line, so a title cannot add steps to the outline or the status', () => {
    const odd = [makeStep('S1', { title: 'Read\n- S9 Fake step\n→ S9 [completed]' }), makeStep('S2', { title: 'Two', dependsOn: ['S1'] })];
    const prompt = buildStepPrompt({ objective: 'o', plan: { steps: odd }, statuses: {}, summary: '', step: odd[1]!, depends: {}, input: 'i' });
    assert.equal(prompt.outline, '2 steps, in plan order:\n- S1 Read - S9 Fake step → S9 [completed]\n- S2 Two');
    assert.equal(prompt.status, '2 steps: 2 pending\n- S1 [pending] (this step depends on it)\n→ S2 [pending]');
  });

  it('stays bounded however long the plan, the summary and the results are', () => {
    const limit = Object.values(defaultStepPromptBudget).reduce((sum, value) => sum + value, 0) + 60;
    for (const size of [10, 100, 1_000]) {
      const plan = numbered(size);
      const last = plan.steps.at(-1)!;
      const depends = Object.fromEntries(plan.steps.slice(-4).map((step) => [step.id, 'result text '.repeat(5_000)]));
      const prompt = buildStepPrompt({ objective: 'goal '.repeat(1_000), plan, statuses: {}, summary: 'fact '.repeat(10_000), step: { ...last, dependsOn: Object.keys(depends) }, depends, input: 'input '.repeat(10_000) });
      assert.ok(prompt.tokens <= limit, `${size} steps: ${prompt.tokens} > ${limit}`);
      assert.match(prompt.status, new RegExp(`→ ${last.id}`));
    }
  });

  it('cuts each part with its own mark: the objective and input at their end, the summary at its start', () => {
    const prompt = buildStepPrompt({
      objective: 'goal '.repeat(100), plan: { steps }, statuses: {}, summary: `${'old '.repeat(100)}newest`, step: { id: 'S2', title: 't', dependsOn: [] }, depends: {}, input: `${'do '.repeat(100)}`,
      budget: { objective: 10, summary: 10, input: 20 },
    });
    assert.match(prompt.objective, /^(goal )+…$/);
    assert.match(prompt.summary, /^… +(old )+newest$/);
    assert.match(prompt.input, /^(do ?)+\n… \(input cut\)$/);
    assert.match(prompt.text, /## What happened so far\n… +(old )+newest\n\n## Where the run stands\n/);
    assert.equal(prompt.head, stepPromptHead('goal '.repeat(100), { steps }, { objective: 10 }));
  });

  it('refers to a dependency result the summary has in full instead of repeating it, and repeats one it has cut or not at all', () => {
    const prompt = buildStepPrompt({
      objective: 'o', plan: { steps }, statuses: {}, summary: '[S1] Title S1: found three files\n[S2] Title S2: long …\n[S9] Other: x',
      step: { id: 'S4', title: 't', dependsOn: ['S1', 'S2', 'S3'] }, depends: { S1: ' found  three\nfiles', S2: 'long result text', S3: 'x' }, input: 'i',
    });
    assert.equal(prompt.dependencies, '### S1\n(in full under "What happened so far")\n### S2\nlong result text\n### S3\nx');
  });

  it('gives each dependency an equal share of the dependency budget, marking cut results and missing ones', () => {
    const prompt = buildStepPrompt({
      objective: 'o', plan: { steps }, statuses: {}, summary: '', step: { id: 'S4', title: 't', dependsOn: ['S1', 'S2', 'S3'] }, depends: { S1: 'a '.repeat(500), S2: 'short' }, input: 'i', budget: { dependencies: 90 },
    });
    const [first, second, third] = prompt.dependencies.split(/\n(?=### )/);
    assert.match(first!, /^### S1\n(a ?)+\n… \(result cut\)$/);
    assert.ok(countTokens(first!) <= 30 && countTokens(first!) >= 24, `${countTokens(first!)} tokens`);
    assert.equal(second, '### S2\nshort');
    assert.equal(third, '### S3\n(no result)');
    const crowded = buildStepPrompt({ objective: 'o', plan: { steps }, statuses: {}, summary: '', step: { id: 'S4', title: 't', dependsOn: ['S1', 'S2', 'S3', 'S5'] }, depends: {}, input: 'i', budget: { dependencies: 12 } });
    assert.match(crowded.dependencies, /\n… \(more results cut\)$/);
  });
});
