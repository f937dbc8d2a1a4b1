import assert from 'node:assert/strict';
import { z } from 'zod';
import { critiquePlan } from '../../../../src/core/plan/critiquePlan';
import type { Check, Plan, Step } from '../../../../src/core/plan/planSchema';
import { verificationFindings } from '../../../../src/core/plan/verificationFindings';
import { heuristicPlan } from '../../../../src/core/planner/heuristicPlan';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import type { Tool, ToolEffect } from '../../../../src/core/tools/tool';
import { maxChecksPerStep } from '../../../../src/shared/vocabulary';
import { makePlan, makeStep } from '../../../support/randomPlans';

const builtins = createToolRegistry(builtinTools());
const found = (plan: Plan, tools: Parameters<typeof verificationFindings>[1] = builtins): string[] =>
  verificationFindings(plan, tools).map((finding) => `${finding.check} ${finding.stepId}`);
const change = (id: string, patch: Partial<Step> = {}): Step => makeStep(id, { input: 'Add error recovery to src/parser.ts', ...patch });
const tool = (name: string, effects: ToolEffect): Tool => ({
  name,
  description: name,
  effects,
  inputSchema: z.object({}).passthrough(),
  run: () => Promise.resolve(''),
});
const npmTest: Check = { kind: 'command', argv: ['npm', 'test'] };

describe('critiquePlan: a change nothing checks', () => {
  it('warns about an agent step that changes files with no check, in the user\'s words', () => {
    const critique = critiquePlan(makePlan([change('S2')]), { tools: builtins });
    assert.deepEqual(critique.issues, [
      {
        check: 'unverified_change',
        name: 'Changes never checked',
        severity: 'warning',
        stepId: 'S2',
        message: 'Step "S2" changes files but nothing checks its work.',
        recommendation: 'Add a check to a step that changes files, e.g. run the tests after it (a command check) or check that the file it writes exists.',
      },
    ]);
    assert.equal(critique.score, 9);
    assert.deepEqual(critique.recommendations, [critique.issues[0]?.recommendation]);
  });

  it('says nothing when the step checks its own work: a check, a verification predicate or a review', () => {
    assert.deepEqual(found(makePlan([change('S1', { checks: [{ kind: 'file_exists', path: 'src/parser.ts' }] })])), []);
    assert.deepEqual(found(makePlan([change('S1', { verification: 'result.length > 0' })])), []);
    assert.deepEqual(found(makePlan([change('S1', { review: true })])), []);
    assert.deepEqual(found(makePlan([change('S1', { checks: [] })])), ['unverified_change S1'], 'an empty list checks nothing');
    assert.deepEqual(found(makePlan([change('S1', { review: false })])), ['unverified_change S1']);
  });

  it('says nothing when a step after it, however deep, runs a command, checks the workspace or has a person review', () => {
    const after = (later: Step): Plan =>
      makePlan([change('S1'), makeStep('S2', { dependsOn: ['S1'], input: 'Explain {{results.S1}}' }), { ...later, dependsOn: ['S2'] }]);
    assert.deepEqual(found(after(makeStep('S3', { kind: 'tool', agent: undefined, tool: 'run_command', args: { argv: ['npm', 'test'] } }))), []);
    assert.deepEqual(found(after(makeStep('S3', { input: 'Explain the result', checks: [npmTest] }))), []);
    assert.deepEqual(found(after(makeStep('S3', { input: 'Explain the result', checks: [{ kind: 'no_new_diagnostics' }] }))), []);
    assert.deepEqual(found(after(makeStep('S3', { kind: 'human_review', agent: undefined, input: 'Look at the change' }))), []);
  });

  it('still warns when what comes after checks nothing of the workspace, or when the check comes before', () => {
    const after = (later: Step): string[] => found(makePlan([change('S1'), { ...later, dependsOn: ['S1'] }]));
    assert.deepEqual(after(makeStep('S2', { kind: 'tool', agent: undefined, tool: 'read_file', args: { path: 'src/parser.ts' } })), ['unverified_change S1']);
    assert.deepEqual(after(makeStep('S2', { input: 'Explain it', checks: [{ kind: 'file_exists', path: 'a.ts' }] })), ['unverified_change S1']);
    assert.deepEqual(after(makeStep('S2', { kind: 'manual', agent: undefined, input: 'Deploy it' })), ['unverified_change S1']);
    const before = makePlan([
      makeStep('S0', { kind: 'tool', agent: undefined, tool: 'run_command', args: { argv: ['npm', 'test'] } }),
      change('S1', { dependsOn: ['S0'] }),
    ]);
    assert.deepEqual(found(before), ['unverified_change S1']);
    const sibling = makePlan([change('S1'), makeStep('S2', { kind: 'tool', agent: undefined, tool: 'run_command', args: { argv: ['npm', 'test'] } })]);
    assert.deepEqual(found(sibling), ['unverified_change S1'], 'a command that does not wait for the change does not check it');
  });

  it('judges the agent by its tools\' declared effects: only an agent that can write or delete files changes them', () => {
    const withAgent = (tools: string[]): Plan => makePlan([change('S1', { agent: 'worker' })], { agents: { worker: { prompt: 'p', tools } } });
    const registry = createToolRegistry([
      tool('look', 'read'),
      tool('scribble', 'write'),
      tool('shred', 'delete'),
      tool('shell', 'command'),
      tool('web', 'network'),
      tool('ask', 'interaction'),
    ]);
    assert.deepEqual(found(withAgent(['scribble']), registry), ['unverified_change S1']);
    assert.deepEqual(found(withAgent(['look', 'shred']), registry), ['unverified_change S1']);
    assert.deepEqual(found(withAgent(['look', 'shell', 'web', 'ask']), registry), []);
    assert.deepEqual(found(withAgent(['unknown_tool']), registry), []);
    assert.deepEqual(found(withAgent(['read_file', 'edit_file'])), ['unverified_change S1'], 'the built-in tools by their own effects');
    assert.deepEqual(found(makePlan([change('S1', { agent: 'direct' })])), [], 'the direct agent has no tools');
    assert.deepEqual(found(makePlan([change('S1', { agent: 'ghost' })])), [], 'an agent the plan lacks is a validation error, not this finding');
  });

  it('gives the default agent every tool: the registry\'s, the named ones, or the built-in ones', () => {
    assert.deepEqual(found(makePlan([change('S1')]), createToolRegistry([tool('look', 'read')])), []);
    assert.deepEqual(found(makePlan([change('S1')]), createToolRegistry([tool('look', 'read'), tool('scribble', 'write')])), ['unverified_change S1']);
    assert.deepEqual(found(makePlan([change('S1')]), ['read_file', 'search_text']), []);
    assert.deepEqual(found(makePlan([change('S1')]), ['read_file', 'write_file']), ['unverified_change S1']);
    assert.deepEqual(found(makePlan([change('S1')]), undefined), ['unverified_change S1']);
  });

  it('looks only at agent steps whose title or input asks for a change', () => {
    assert.deepEqual(found(makePlan([makeStep('S1', { input: 'Explain how src/parser.ts handles errors' })])), []);
    assert.deepEqual(found(makePlan([makeStep('S1', { title: 'Fix the parser', input: 'See the issue' })])), ['unverified_change S1']);
    assert.deepEqual(found(makePlan([makeStep('S1', { kind: 'synthesis_gate', agent: undefined, input: 'Write a summary' })])), []);
    assert.deepEqual(found(makePlan([makeStep('S1', { kind: 'manual', agent: undefined, input: 'Update the server' })])), []);
    assert.deepEqual(found(makePlan([makeStep('S1', { kind: 'tool', agent: undefined, tool: 'write_file', args: { path: 'a', content: '' } })])), []);
  });

  it('follows a long chain and a cycle without running out of stack', () => {
    const chain = Array.from({ length: 20_000 }, (_, index) => makeStep(`s${index}`, { input: 'Explain', dependsOn: index === 0 ? [] : [`s${index - 1}`] }));
    const plan = makePlan([
      change('first'),
      ...chain.map((step, index) => (index === 0 ? { ...step, dependsOn: ['first'] } : step)),
      makeStep('test', { kind: 'tool', agent: undefined, tool: 'run_command', args: { argv: ['npm', 'test'] }, dependsOn: ['s19999'] }),
    ]);
    assert.deepEqual(found(plan), []);
    const cycle = makePlan([change('a', { dependsOn: ['b'] }), makeStep('b', { input: 'Explain', dependsOn: ['a'] })]);
    assert.deepEqual(found(cycle), ['unverified_change a']);
    const run = { kind: 'tool' as const, agent: undefined, tool: 'run_command', args: { argv: ['npm', 'test'] } };
    const checkedCycle = makePlan([
      change('a', { dependsOn: ['b'] }),
      makeStep('b', { input: 'Explain', dependsOn: ['a'] }),
      makeStep('t', { ...run, dependsOn: ['b'] }),
    ]);
    assert.deepEqual(found(checkedCycle), []);
    const ghost = makePlan([change('a'), makeStep('t', { ...run, dependsOn: ['a', 'ghost'] })]);
    assert.deepEqual(found(ghost), [], 'a dependency no step has is a validation error, not a crash');
  });

  it('flags the heuristic planner\'s change without a check, but not one the tests run after', () => {
    assert.deepEqual(found(heuristicPlan('Add a README section', { model: true })), ['unverified_change S001']);
    assert.deepEqual(found(heuristicPlan('add a README section then run npm test', { model: true })), []);
    assert.deepEqual(found(heuristicPlan('create a file notes.md with a todo list', { model: true })), []);
  });
});

describe('critiquePlan: a check that cannot pass', () => {
  const withChecks = (checks: Check[], patch: Partial<Step> = {}): Plan => makePlan([makeStep('S1', { input: 'Explain', checks, ...patch })]);
  const messages = (plan: Plan): string[] =>
    critiquePlan(plan, { tools: builtins }).issues.map((issue) => `${issue.check} ${issue.severity}: ${issue.message}`);

  it('warns about a path checked both present and absent, however the path is written', () => {
    assert.deepEqual(messages(withChecks([{ kind: 'file_exists', path: 'src/a.ts' }, { kind: 'file_absent', path: './src//a.ts' }])), [
      'impossible_check warning: Step "S1" checks "file exists src/a.ts" and "file absent ./src//a.ts": both cannot pass.',
    ]);
    assert.deepEqual(messages(withChecks([{ kind: 'file_absent', path: 'out/' }, { kind: 'file_contains', path: 'out', text: 'x' }])), [
      'impossible_check warning: Step "S1" checks "out contains "x"" and "file absent out/": both cannot pass.',
    ]);
    assert.equal(messages(withChecks([{ kind: 'file_exists', path: '././x/./y/' }, { kind: 'file_absent', path: 'x/y' }])).length, 1);
    assert.deepEqual(messages(withChecks([{ kind: 'file_exists', path: 'a/b' }, { kind: 'file_absent', path: 'ab' }])), []);
    assert.deepEqual(messages(withChecks([{ kind: 'file_exists', path: 'a.b/c' }, { kind: 'file_absent', path: 'a.c' }])), []);
    const issue = critiquePlan(withChecks([{ kind: 'file_exists', path: 'a' }, { kind: 'file_absent', path: 'a' }])).issues[0];
    assert.equal(issue?.name, 'Check that cannot pass');
    assert.equal(issue?.recommendation, 'Correct or remove a check that can never pass: the step would fail however well it did its work.');
  });

  it('warns about a step that writes a file it checks is absent, or deletes one it checks is there', () => {
    const write = { kind: 'tool' as const, agent: undefined, tool: 'write_file', args: { path: './notes.md', content: 'x' } };
    assert.deepEqual(messages(withChecks([{ kind: 'file_absent', path: 'notes.md' }], write)), [
      'impossible_check warning: Step "S1" writes a file it then checks is absent ("file absent notes.md"): the check cannot pass.',
    ]);
    const remove = { kind: 'tool' as const, agent: undefined, tool: 'delete_file', args: { path: 'old.log' } };
    assert.deepEqual(messages(withChecks([{ kind: 'file_exists', path: 'old.log' }], remove)), [
      'impossible_check warning: Step "S1" deletes a file it then checks is there ("file exists old.log"): the check cannot pass.',
    ]);
    assert.deepEqual(messages(withChecks([{ kind: 'file_absent', path: 'old.log' }], remove)), []);
    assert.deepEqual(messages(withChecks([{ kind: 'file_exists', path: 'notes.md' }], write)), []);
    assert.deepEqual(messages(withChecks([{ kind: 'file_absent', path: 'other.md' }], write)), []);
    assert.deepEqual(
      messages(withChecks([{ kind: 'file_exists', path: 'x' }], { kind: 'tool', agent: undefined, tool: 'read_file', args: { path: 'x' } })),
      [],
    );
  });

  it('leaves a check broken on its own (a pattern, an empty command) to validation, and says nothing of ordinary checks', () => {
    assert.deepEqual(found(withChecks([{ kind: 'file_contains', path: 'a.ts', pattern: 'foo(' }, { kind: 'command', argv: [' '] }])), []);
    assert.deepEqual(
      found(
        withChecks([{ kind: 'file_contains', path: 'a.ts', pattern: 'v\\d+' }, npmTest, { kind: 'file_exists', path: 'b' }, { kind: 'no_new_diagnostics' }]),
      ),
      [],
    );
  });

  it('reports one finding per step, and leaves a step with too many checks to validation', () => {
    const contradictions = Array.from({ length: 10 }, (_, index): Check[] => [
      { kind: 'file_exists', path: `f${index}` },
      { kind: 'file_absent', path: `f${index}` },
    ]).flat();
    assert.equal(messages(withChecks(contradictions)).length, 1);
    const tooMany = Array.from({ length: 10_000 }, (_, index): Check => ({ kind: index % 2 === 0 ? 'file_exists' : 'file_absent', path: 'same' }));
    assert.deepEqual(critiquePlan(withChecks(tooMany)).issues.map((issue) => issue.check), ['invalid_step']);
    const most = Array.from({ length: maxChecksPerStep }, (_, index): Check => ({ kind: index % 2 === 0 ? 'file_exists' : 'file_absent', path: 'same' }));
    assert.deepEqual(found(withChecks(most)), ['impossible_check S1']);
  });

  it('shows control characters in a path as escapes and cuts a long one', () => {
    // validatePlan refuses such a path too (an error of its own); the critic's warning still shows it safely.
    const message = messages(
      withChecks([
        { kind: 'file_exists', path: 'a\u001b[31m\nb' },
        { kind: 'file_absent', path: 'a\u001b[31m\nb' },
      ]),
    ).find((text) => text.startsWith('impossible_check'));
    assert.equal(
      message,
      'impossible_check warning: Step "S1" checks "file exists a\\u001b[31m\\u000ab" and "file absent a\\u001b[31m\\u000ab": both cannot pass.',
    );
    const long = 'd/'.repeat(900);
    const [cut] = messages(withChecks([{ kind: 'file_exists', path: long }, { kind: 'file_absent', path: long }]));
    assert.ok(cut!.length < 400, `${cut!.length} characters`);
  });
});

describe('critiquePlan: a retry that a failed check never gets', () => {
  const messages = (plan: Plan): string[] =>
    critiquePlan(plan, { tools: builtins }).issues.map((issue) => `${issue.check} ${issue.severity}: ${issue.message}`);
  const bump = (patch: Partial<Step>): Plan =>
    makePlan([makeStep('S1', { kind: 'tool', agent: undefined, tool: 'run_command', args: { argv: ['node', 'bump.cjs'] }, maxAttempts: 2, ...patch })]);

  it('warns when a step retries on errors but stops when its checks fail, naming the setting that retries them', () => {
    assert.deepEqual(messages(bump({ onFailure: 'retry', onVerificationFailure: 'stop', checks: [npmTest] })), [
      'check_without_retry warning: Step "S1" is retried when it fails, but a failed check or verification stops it (onVerificationFailure: stop).',
    ]);
    const issue = critiquePlan(bump({ onFailure: 'retry', onVerificationFailure: 'stop', verification: 'result.exitCode === 0' }), { tools: builtins })
      .issues[0];
    assert.equal(issue?.name, 'Failed check never retried');
    assert.equal(
      issue?.recommendation,
      'Set the step\'s "If a check fails" to retry (its Edit form in the plan panel; onVerificationFailure: "retry" in a plan file) when another attempt could pass its checks.',
    );
  });

  it('says nothing when checks are retried too, when nothing checks the step, or when errors are not retried', () => {
    const retryFindings = (plan: Plan): string[] => messages(plan).filter((line) => line.startsWith('check_without_retry'));
    assert.deepEqual(retryFindings(bump({ onFailure: 'retry', onVerificationFailure: 'retry', checks: [npmTest] })), []);
    assert.deepEqual(retryFindings(bump({ onFailure: 'retry', onVerificationFailure: 'stop' })), []);
    assert.deepEqual(retryFindings(bump({ onFailure: 'stop', onVerificationFailure: 'stop', checks: [npmTest] })), []);
    assert.deepEqual(retryFindings(bump({ onFailure: 'retry', onVerificationFailure: 'replan', checks: [npmTest] })), []);
  });
});

describe('critiquePlan: a check that cannot fail (issue 29)', () => {
  it('flags verification "true" and its spellings, and a command check that runs `true`, and scores them visibly lower', () => {
    for (const verification of ['true', ' (true) ', 'return true;', '!false', '1']) {
      assert.deepEqual(found(makePlan([makeStep('a', { verification })])), ['check_cannot_fail a'], verification);
    }
    assert.deepEqual(found(makePlan([makeStep('a', { checks: [{ kind: 'command', argv: ['true'] }] })])), ['check_cannot_fail a']);
    assert.deepEqual(found(makePlan([makeStep('a', { verification: 'result === true' })])), []);
    assert.deepEqual(found(makePlan([makeStep('a', { checks: [{ kind: 'command', argv: ['true'], expectExitCode: 1 }] })])), []);
    const critique = critiquePlan(makePlan([makeStep('a', { verification: 'true' })]), { tools: builtins });
    assert.deepEqual(critique.issues.map((issue) => [issue.check, issue.name, issue.message]), [
      ['check_cannot_fail', 'Check that cannot fail', 'Step "a" verifies its result with "true", which is true whatever the step did: it checks nothing.'],
    ]);
    assert.equal(critique.score, 8);
  });

  it('does not count such a check as checking a change', () => {
    assert.deepEqual(found(makePlan([change('S1', { verification: 'true' })])), ['unverified_change S1', 'check_cannot_fail S1']);
    assert.deepEqual(found(makePlan([change('S1', { checks: [{ kind: 'command', argv: [':'] }] })])), ['unverified_change S1', 'check_cannot_fail S1']);
    assert.deepEqual(found(makePlan([change('S1'), makeStep('t', { dependsOn: ['S1'], input: '$S1', checks: [{ kind: 'command', argv: ['true'] }] })])), [
      'unverified_change S1',
      'check_cannot_fail t',
    ]);
  });
});
