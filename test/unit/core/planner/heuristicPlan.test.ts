import assert from 'node:assert/strict';
import { heuristicPlan } from '../../../../src/core/planner/heuristicPlan';
import { validatePlan } from '../../../../src/core/plan/validatePlan';

describe('heuristicPlan', () => {
  it('plans the design example: ordered steps, the URL on the step that mentions it', () => {
    const plan = heuristicPlan('Add login with session cookies. Use basic auth. Read API spec at https://example.com/spec.pdf. Then write unit tests.');
    assert.deepEqual(plan.steps.map((step) => step.title), ['Add login with session cookies', 'Use basic auth', 'Read API spec at https://example.com/spec.pdf', 'Write unit tests']);
    assert.deepEqual(plan.steps.map((step) => step.attachments ?? []), [[], [], [{ kind: 'link', ref: 'https://example.com/spec.pdf' }], []]);
    assert.deepEqual(plan.steps.map((step) => step.dependsOn), [[], ['S001'], ['S002'], ['S003']]);
    assert.deepEqual(plan.steps.map((step) => step.agent), ['coder', 'coder', 'researcher', 'tester']);
  });

  it('chains steps sequentially with ids S001, S002, …', () => {
    const plan = heuristicPlan('- one\n- two\n- three');
    assert.deepEqual(plan.steps.map((step) => [step.id, step.dependsOn]), [['S001', []], ['S002', ['S001']], ['S003', ['S002']]]);
  });

  it('uses a list lead-in ending with ":" as the objective, not as a step', () => {
    const plan = heuristicPlan('Clean up the repo:\n1. remove dist\n2. update the README');
    assert.equal(plan.objective, 'Clean up the repo');
    assert.equal(plan.steps.length, 2);
  });

  it('produces a plan that validates, with only the agents it uses', () => {
    const plan = heuristicPlan('Read `src/a.ts`, then explain the code. Finally run `npm test`.');
    assert.deepEqual(validatePlan(plan, { tools: ['read_file', 'run_command', 'list_files', 'search_text', 'write_file', 'edit_file', 'create_directory', 'delete_file'] }), []);
    assert.deepEqual(Object.keys(plan.agents), ['researcher']);
  });

  it('marks steps that touch the network or commands for retry', () => {
    const plan = heuristicPlan('Download https://x.dev/data.json. Then run `make build`. Then rename the file.');
    assert.deepEqual(plan.steps.map((step) => [step.onFailure, step.maxAttempts]), [['retry', 3], ['retry', 3], ['stop', 1]]);
  });

  it('attaches image URLs as images and de-duplicates URLs', () => {
    const [step] = heuristicPlan('Match the mockup https://x.dev/m.png and https://x.dev/m.png and https://x.dev/page.').steps;
    assert.deepEqual(step!.attachments, [{ kind: 'image', ref: 'https://x.dev/m.png' }, { kind: 'link', ref: 'https://x.dev/page' }]);
  });

  it('is deterministic', () => {
    assert.deepEqual(heuristicPlan('Do a. Then do b.'), heuristicPlan('Do a. Then do b.'));
    assert.notEqual(heuristicPlan('Do a.').id, heuristicPlan('Do b.').id);
  });

  it('normalizes line endings, curly quotes and trailing spaces', () => {
    const plan = heuristicPlan('  Search for \u201CTODO\u201D  \r\n\r\n\r\n');
    assert.deepEqual(plan.steps.map((step) => [step.tool, step.args]), [['search_text', { pattern: 'TODO' }]]);
  });

  it('refuses an empty request with a clear error', () => {
    assert.throws(() => heuristicPlan(' \n\t '), /The request is empty/);
  });

  it('caps long objectives and titles', () => {
    const plan = heuristicPlan(`Write ${'very '.repeat(100)}long docs`);
    assert.ok(plan.objective.length <= 240);
    assert.ok(plan.steps[0]!.title.length <= 80);
  });
});
