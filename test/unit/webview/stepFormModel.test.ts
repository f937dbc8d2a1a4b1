import assert from 'node:assert/strict';
import type { StepView } from '../../../src/shared/panelViewModel';
import { errorSummary, fieldSpecs, formFields, formToEdit, initialValues, kindFields, outcomeFields, suggestStepId, withFieldValue } from '../../../webview/stepFormModel';

const step: StepView = {
  id: 'S1',
  index: 0,
  title: 'Think',
  kind: 'agent',
  runner: 'agent: default',
  agent: 'default',
  input: 'summarise',
  dependsOn: ['S0'],
  onFailure: 'stop',
  maxAttempts: 1,
  critical: true,
  onVerificationFailure: 'stop',
  skipped: false,
  approval: 'none',
  problems: [],
};

describe('webview step form model', () => {
  it('names each kind by who does its work, not by the plan file\'s word (a newcomer met synthesis_gate unexplained)', () => {
    const kinds = fieldSpecs.kind.options?.([], '') ?? [];
    assert.deepEqual(kinds, ['tool', 'agent', 'synthesis_gate', 'human_review', 'clarification', 'manual']);
    for (const kind of kinds) {
      const label = fieldSpecs.kind.optionLabel?.(kind, [], []) ?? '';
      assert.match(label, /^[A-Z][a-z ]+: [a-z]/, `${kind}: ${label}`);
      assert.doesNotMatch(label, /_/, kind);
    }
    assert.equal(fieldSpecs.kind.optionLabel?.('human_review', [], []), 'Your review: you approve or reject');
    assert.equal(fieldSpecs.tool.optionLabel?.('read_file', [], ['read_file']), 'read_file', 'a tool is named by its own name');
  });

  it('says which kinds need a model when none is set up (a newcomer added an Agent step that could not run)', () => {
    const needing = ['agent', 'synthesis_gate'] as const;
    assert.equal(fieldSpecs.kind.optionLabel?.('agent', needing, []), 'Agent: a model works on it with tools (needs a model: none is set up)');
    assert.equal(fieldSpecs.kind.optionLabel?.('synthesis_gate', needing, []), 'Summary: a model sums up earlier results (needs a model: none is set up)');
    assert.equal(fieldSpecs.kind.optionLabel?.('manual', needing, []), 'Yours to do: you do it, then say done');
    assert.equal(fieldSpecs.kind.optionLabel?.('agent', [], []), 'Agent: a model works on it with tools');
  });

  it('shows the fields of the chosen kind after Kind, and the failure fields only when editing', () => {
    assert.deepEqual(formFields('agent', false), [
      'title',
      'kind',
      'agent',
      'input',
      'skills',
      'writes',
      'checks',
      'dependsOn',
      'onFailure',
      'maxAttempts',
      'critical',
      'verification',
      'onVerificationFailure',
    ]);
    assert.deepEqual(formFields('tool', false), [
      'title',
      'kind',
      'tool',
      'args',
      'writes',
      'checks',
      'dependsOn',
      'onFailure',
      'maxAttempts',
      'critical',
      'verification',
      'onVerificationFailure',
    ]);
    assert.deepEqual(formFields('tool', true), ['id', 'title', 'kind', 'tool', 'args', 'writes', 'checks', 'dependsOn']);
    for (const fields of Object.values(kindFields)) for (const name of fields) assert.ok(fieldSpecs[name], name);
  });

  it('offers a person\'s step no attempts and no verification predicate: it is never tried again, and its result is their note (trial)', () => {
    assert.deepEqual(formFields('manual', false), ['title', 'kind', 'input', 'checks', 'dependsOn', 'onFailure', 'critical', 'onVerificationFailure']);
    assert.deepEqual(formFields('clarification', false), ['title', 'kind', 'agent', 'input', 'dependsOn', 'onFailure', 'critical']);
    assert.deepEqual(formFields('human_review', false), ['title', 'kind', 'agent', 'input', 'dependsOn', 'onFailure', 'critical']);
    assert.deepEqual(formFields('manual', true), ['id', 'title', 'kind', 'input', 'checks', 'dependsOn']);
    for (const fields of Object.values(outcomeFields)) for (const name of fields) assert.ok(fieldSpecs[name], name);
  });

  it('keeps a hidden field\'s value: a manual step\'s verification is sent as it was, and its checks are edited', () => {
    const manual: StepView = { ...step, kind: 'manual', runner: 'you', agent: undefined, verification: 'result.length > 0', checksText: '- kind: file_exists\n  path: docs/usage.md' };
    const values = initialValues(manual, []);
    const edited = formToEdit({ ...values, checks: '- kind: file_exists\n  path: docs/guide.md' }, manual);
    assert.ok(edited.ok);
    assert.equal(edited.edit.type, 'updateStep');
    const patch = edited.edit.type === 'updateStep' ? edited.edit.patch : undefined;
    assert.equal(patch?.verification, 'result.length > 0');
    assert.deepEqual(patch?.checks, [{ kind: 'file_exists', path: 'docs/guide.md' }]);
  });

  it('names every field by a visible label, and every select has its choices', () => {
    for (const spec of Object.values(fieldSpecs)) {
      assert.ok(spec.label.trim().length > 0, spec.name);
      if (spec.control === 'select') assert.ok((spec.options?.(['read_file'], 'x') ?? []).length > 0, spec.name);
    }
    assert.deepEqual(fieldSpecs.tool.options?.([], 'custom_tool'), ['custom_tool'], 'without a tool list the current tool stays choosable');
  });

  it('saves a kind changed to tool with its tool and failure policy, and leaves the agent fields out', () => {
    const values = { ...initialValues(step, ['read_file', 'list_files']), kind: 'tool', tool: 'list_files', onFailure: 'skip' };
    const result = formToEdit(values, step);
    assert.ok(result.ok);
    assert.deepEqual(result.edit, {
      type: 'updateStep',
      stepId: 'S1',
      patch: {
        title: 'Think',
        kind: 'tool',
        dependsOn: ['S0'],
        onFailure: 'skip',
        maxAttempts: 1,
        critical: true,
        verification: '',
        onVerificationFailure: 'stop',
        tool: 'list_files',
        args: {},
      },
    });
  });

  it('refuses bad input field by field, and says so in one sentence in the form order', () => {
    const result = formToEdit({ ...initialValues(step, []), title: ' ', kind: 'tool', tool: 'read_file', args: '[1]', maxAttempts: '0' }, step);
    assert.ok(!result.ok);
    assert.deepEqual(Object.keys(result.errors).sort(), ['args', 'maxAttempts', 'title']);
    assert.equal(
      errorSummary(result.errors, formFields('tool', false)),
      `Not saved, 3 fields need attention. Title: ${result.errors.title} Arguments: ${result.errors.args} Attempts: ${result.errors.maxAttempts}`,
    );
    assert.equal(errorSummary({}, []), '');
  });

  it('adds a new step at the chosen position', () => {
    const result = formToEdit({ ...initialValues(undefined, ['read_file']), id: 'S9', title: 'Read it', args: '{"path": "a"}' }, undefined, { insertAt: 2 });
    assert.deepEqual(result, {
      ok: true,
      edit: { type: 'addStep', step: { id: 'S9', title: 'Read it', kind: 'tool', dependsOn: [], tool: 'read_file', args: { path: 'a' } }, index: 2 },
    });
  });

  it("edits an agent step's skills as a comma-separated list: kept in order, checked against the workspace's skills, emptied to remove them", () => {
    const withSkills: StepView = { ...step, skills: ['testing', 'release'] };
    const values = initialValues(withSkills, []);
    assert.equal(values.skills, 'testing, release');
    const saved = formToEdit({ ...values, skills: ' release ,, testing, docs ' }, withSkills, { skills: ['docs', 'release', 'testing'] });
    assert.ok(saved.ok && saved.edit.type === 'updateStep');
    assert.deepEqual(saved.edit.patch.skills, ['release', 'testing', 'docs']);
    const cleared = formToEdit({ ...values, skills: '  ' }, withSkills, { skills: ['testing'] });
    assert.ok(cleared.ok && cleared.edit.type === 'updateStep');
    assert.deepEqual(cleared.edit.patch.skills, [], 'an emptied field is sent, so the host removes the skills');
    const unknown = formToEdit({ ...values, skills: 'testing, deploy, lint' }, withSkills, { skills: ['release', 'testing'] });
    assert.ok(!unknown.ok);
    assert.equal(unknown.errors.skills, 'There are no skills "deploy", "lint" in this workspace; choose from: release, testing.');
    const none = formToEdit({ ...values, skills: 'deploy' }, withSkills, { skills: [] });
    assert.equal(!none.ok && none.errors.skills, 'There is no skill "deploy" in this workspace; it has none yet.');
    const rule = 'Skill names are lowercase letters, digits and single hyphens (at most 64 characters), such as release-notes; separate them with commas.';
    for (const typed of ['testing release', 'Testing', 'summaries\u202e, gnp.exe\u001b[31m\u0007', 'x'.repeat(5000)]) {
      const refused = formToEdit({ ...values, skills: typed }, withSkills, { skills: ['testing'] });
      assert.equal(!refused.ok && refused.errors.skills, rule, `${JSON.stringify(typed.slice(0, 40))}: refused without being echoed`);
    }
    const repeated = formToEdit({ ...values, skills: Array.from({ length: 40 }, () => 'testing').join(', ') }, withSkills, { skills: ['testing'] });
    assert.ok(repeated.ok && repeated.edit.type === 'updateStep', 'a name repeated 40 times is one name, within the limit');
    assert.deepEqual(repeated.edit.patch.skills, ['testing']);
    const unread = formToEdit({ ...values, skills: 'deploy' }, withSkills);
    assert.ok(unread.ok, 'before the skills were read, the host checks the names');
    const asTool = formToEdit({ ...values, kind: 'tool', tool: 'read_file', skills: 'deploy' }, withSkills, { skills: [] });
    assert.ok(asTool.ok && asTool.edit.type === 'updateStep' && !('skills' in asTool.edit.patch), 'a tool step takes no skills');
    const added = formToEdit({ ...initialValues(undefined, []), id: 'S9', title: 'Think', kind: 'agent', input: 'x', skills: '' }, undefined, {
      skills: ['testing'],
    });
    assert.ok(added.ok && added.edit.type === 'addStep' && !('skills' in added.edit.step), 'a new step without skills names none');
    assert.equal(fieldSpecs.skills.note?.(undefined), '');
    assert.match(fieldSpecs.skills.note?.([]) ?? '', /no skills yet: add SKILL\.md files/);
    assert.equal(fieldSpecs.skills.note?.(['release', 'testing']), 'Skills of this workspace: release, testing.');
  });

  it("edits the files a step may change, one a line: normalized, each once, sent only when changed, emptied to remove them", () => {
    const scoped: StepView = { ...step, writes: 'src/**, README.md', writePatterns: ['src/**', 'README.md'] };
    const values = initialValues(scoped, []);
    assert.equal(values.writes, 'src/**\nREADME.md');
    assert.equal(fieldSpecs.writes.control, 'area');
    assert.equal(fieldSpecs.writes.note?.(undefined), 'One path or glob a line, inside the workspace; a change of another file asks first. Empty: no limit.');
    const patchOf = (writes: string) => {
      const result = formToEdit({ ...values, writes }, scoped);
      assert.ok(result.ok && result.edit.type === 'updateStep', JSON.stringify(result));
      return result.edit.patch;
    };
    assert.equal('writes' in patchOf(values.writes ?? ''), false, 'an unchanged list is not sent');
    assert.equal('writes' in patchOf(' ./src/**\r\n\n README.md/ \n'), false, 'the same list typed differently is the same list');
    assert.deepEqual(patchOf('./docs//guide/\nsrc/{a,b}.ts\n\ndocs/guide\n').writes, ['docs/guide', 'src/{a,b}.ts']);
    assert.deepEqual(patchOf('  \n').writes, [], 'an emptied field is sent, so the host removes the scope');
    const asManual = formToEdit({ ...values, kind: 'manual', writes: 'other.txt' }, scoped);
    assert.ok(asManual.ok && asManual.edit.type === 'updateStep' && !('writes' in asManual.edit.patch), 'a step a person does takes no files');
    const unscoped = formToEdit({ ...initialValues(step, []), writes: '' }, step);
    assert.ok(unscoped.ok && unscoped.edit.type === 'updateStep' && !('writes' in unscoped.edit.patch));
    const added = formToEdit({ ...initialValues(undefined, ['write_file']), id: 'S9', title: 'Write', args: '{"path": "a.txt"}', writes: 'a.txt' }, undefined);
    assert.ok(added.ok && added.edit.type === 'addStep');
    assert.deepEqual(added.edit.step.writes, ['a.txt']);
    const addedBare = formToEdit({ ...initialValues(undefined, ['read_file']), id: 'S9', title: 'Read', args: '{"path": "a.txt"}' }, undefined);
    assert.ok(addedBare.ok && addedBare.edit.type === 'addStep' && !('writes' in addedBare.edit.step));
  });

  it('refuses a path outside the workspace, absolute, too long or holding control or direction characters, without repeating it', () => {
    const scoped: StepView = { ...step, writePatterns: ['src'] };
    const refusals: [string, string][] = [
      ['../secrets.txt', 'Keep paths inside the workspace folder: leave ".." out.'],
      ['src/../../etc', 'Keep paths inside the workspace folder: leave ".." out.'],
      ['/etc/passwd', 'Give paths relative to the workspace folder, such as src/app.ts, not absolute ones.'],
      ['.//etc', 'Give paths relative to the workspace folder, such as src/app.ts, not absolute ones.'],
      ['C:/Windows', 'Give paths relative to the workspace folder, such as src/app.ts, not absolute ones.'],
      ['src\\..\\..\\x', 'Separate folders with "/", as in src/app.ts.'],
      ['.', 'To let the step change any file, leave the list empty.'],
      ['src/\u202egpj.exe', 'Leave control and text-direction characters out of paths.'],
      ['src/a\u001b[31m.ts', 'Leave control and text-direction characters out of paths.'],
      ['x'.repeat(301), 'Keep each path or glob under 301 characters.'],
      [Array.from({ length: 51 }, (_, index) => `f${index}`).join('\n'), 'Name at most 50 paths or globs.'],
    ];
    for (const [typed, message] of refusals) {
      const result = formToEdit({ ...initialValues(scoped, []), writes: `ok.txt\n${typed}` }, scoped);
      assert.ok(!result.ok, JSON.stringify(typed.slice(0, 40)));
      assert.equal(result.errors.writes, message, JSON.stringify(typed.slice(0, 40)));
    }
    const many = formToEdit({ ...initialValues(scoped, []), writes: Array.from({ length: 50 }, (_, index) => `f${index}`).join('\n') }, scoped);
    assert.ok(many.ok, 'fifty paths are within the limit');
    const refused = formToEdit({ ...initialValues(scoped, []), writes: '../x' }, scoped);
    assert.equal(
      !refused.ok && errorSummary(refused.errors, formFields('agent', false)),
      `Not saved, 1 field needs attention. Files it may change: ${refused.ok ? '' : refused.errors.writes}`,
    );
  });

  it('keeps On failure and Attempts consistent: leaving Retry sets 1 attempt, Retry sets at least 2, and Retry with 1 is refused saying why', () => {
    const retrying = { ...initialValues(step, []), onFailure: 'retry', maxAttempts: '3' };
    const stopped = withFieldValue(retrying, 'onFailure', 'stop');
    assert.deepEqual([stopped.onFailure, stopped.maxAttempts], ['stop', '1']);
    const sent = formToEdit(stopped, step);
    assert.ok(sent.ok && sent.edit.type === 'updateStep');
    assert.deepEqual(sent.ok && sent.edit.type === 'updateStep' ? [sent.edit.patch.onFailure, sent.edit.patch.maxAttempts] : [], ['stop', 1]);
    const chosen = withFieldValue(initialValues(step, []), 'onFailure', 'retry');
    assert.equal(chosen.maxAttempts, '2');
    assert.equal(withFieldValue({ ...chosen, maxAttempts: '5' }, 'onFailure', 'retry').maxAttempts, '5', 'choosing the same policy again changes nothing');
    assert.equal(withFieldValue(chosen, 'title', 'x').maxAttempts, '2');
    const refused = formToEdit({ ...chosen, maxAttempts: '1' }, step);
    assert.equal(refused.ok ? '' : refused.errors.maxAttempts, 'Retry needs at least 2 attempts: the first try and one retry.');
    assert.match(fieldSpecs.maxAttempts.note?.(undefined) ?? '', /not tried again/);
  });

  describe('issue 28 (polish): templates, text arguments, a new id, checks', () => {
    const templates = { write_file: 'path: ""\ncontent: ""', edit_file: 'path: ""\nedits:\n  - search: ""\n    replace: ""', list_files: '{}' };

    it("a new step gets the next free id in the plan's own pattern, and its first tool's arguments to fill in", () => {
      assert.equal(suggestStepId(['S001', 'S002', 'S003']), 'S004');
      assert.equal(suggestStepId(['L1', 'L9', 'R2']), 'L10');
      assert.equal(suggestStepId(['read', 'write']), 'S1');
      assert.equal(suggestStepId([]), 'S1');
      assert.equal(suggestStepId(['S1', 'S2', 'S3', 'S4', 'T3']), 'S5');
      assert.equal(suggestStepId(['S2', 'S3', 'S02x', 'S3']), 'S4');
      const values = initialValues(undefined, ['write_file', 'list_files'], { templates, stepIds: ['S1', 'S2'] });
      assert.equal(values.id, 'S3');
      assert.equal(values.args, templates.write_file);
      assert.equal(initialValues(undefined, ['read_file']).args, '{}', 'no template known: an empty object');
    });

    it("choosing another tool puts its template in, unless the user wrote arguments of their own", () => {
      const start = initialValues(undefined, ['write_file', 'edit_file'], { templates });
      assert.equal(withFieldValue(start, 'tool', 'edit_file', templates).args, templates.edit_file);
      assert.equal(withFieldValue({ ...start, args: '{}' }, 'tool', 'edit_file', templates).args, templates.edit_file);
      // The new tool's arguments, keeping those of the same name: a step's content is no argument of edit_file.
      const typed = { ...start, args: 'path: notes.txt\ncontent: hello' };
      assert.equal(withFieldValue(typed, 'tool', 'edit_file', templates).args, 'path: notes.txt\nedits:\n  - search: ""\n    replace: ""');
      assert.equal(withFieldValue(start, 'tool', 'run_command', templates).args, start.args, 'no template: what was there stays');
      assert.equal(withFieldValue(start, 'title', 'x', templates).args, start.args);
    });

    it("gives a tool back the arguments it had in the form (a newcomer's trial: typing `ru` passed list_files, and run_command came back with an empty argv)", () => {
      const command = { ...initialValues(undefined, ['run_command', 'list_files'], { templates }), tool: 'run_command', args: 'argv:\n  - npm\n  - test' };
      const listed = withFieldValue(command, 'tool', 'list_files', templates, {}, { run_command: command.args });
      assert.equal(listed.args, '{}');
      const back = withFieldValue(listed, 'tool', 'run_command', templates, {}, { run_command: command.args, list_files: listed.args });
      assert.equal(back.args, 'argv:\n  - npm\n  - test');
      assert.equal(withFieldValue(listed, 'tool', 'run_command', templates).args, '{}', 'nothing remembered: as before');
    });

    it('reads a multi-line content typed as text (YAML), and JSON as before', () => {
      const yaml = 'path: notes.txt\ncontent: |\n  first line\n  "quoted" second line\n';
      const result = formToEdit({ ...initialValues(undefined, ['write_file']), id: 'S9', title: 'Write', args: yaml }, undefined);
      assert.ok(result.ok);
      assert.deepEqual(result.edit.type === 'addStep' && result.edit.step.args, { path: 'notes.txt', content: 'first line\n"quoted" second line\n' });
      const json = formToEdit({ ...initialValues(undefined, ['write_file']), id: 'S9', title: 'Write', args: '{"path": "a", "content": "x\\ny"}' }, undefined);
      assert.ok(json.ok);
      assert.deepEqual(json.edit.type === 'addStep' && json.edit.step.args, { path: 'a', content: 'x\ny' });
      const broken = formToEdit({ ...initialValues(undefined, ['write_file']), id: 'S9', title: 'Write', args: 'path: [unclosed' }, undefined);
      assert.ok(!broken.ok);
      assert.match(broken.errors.args ?? '', /^Arguments are not valid YAML or JSON: \S/);
      assert.doesNotMatch(broken.errors.args ?? '', /\n/);
    });

    it('saves checks typed in the Checks field, removes them when emptied, and refuses a check without a known kind', () => {
      const added = formToEdit({ ...initialValues(undefined, ['run_command']), id: 'S9', title: 'Test', args: 'argv: [pytest]', checks: '- kind: file_exists\n  path: out.txt' }, undefined);
      assert.ok(added.ok);
      assert.deepEqual(added.edit.type === 'addStep' && added.edit.step.checks, [{ kind: 'file_exists', path: 'out.txt' }]);
      const checked: StepView = { ...step, checksText: '- kind: file_exists\n  path: a', checks: 'file exists a' };
      const unchanged = formToEdit(initialValues(checked, []), checked);
      assert.ok(unchanged.ok);
      assert.equal(unchanged.edit.type === 'updateStep' && 'checks' in unchanged.edit.patch, false, 'unchanged checks are not sent');
      const emptied = formToEdit({ ...initialValues(checked, []), checks: ' ' }, checked);
      assert.ok(emptied.ok);
      assert.deepEqual(emptied.edit.type === 'updateStep' && emptied.edit.patch.checks, []);
      const wrong = formToEdit({ ...initialValues(checked, []), checks: '- kind: tests_pass' }, checked);
      assert.ok(!wrong.ok);
      assert.match(wrong.errors.checks ?? '', /Give each check a kind: file_exists, file_absent, file_contains, command, no_new_diagnostics/);
      const notList = formToEdit({ ...initialValues(checked, []), checks: 'kind: command' }, checked);
      assert.ok(!notList.ok);
      assert.match(notList.errors.checks ?? '', /Checks are a list/);
    });

    it("edits an existing step's 'If a check fails', which the critic's retry advice names", () => {
      const values = withFieldValue(initialValues(step, []), 'onVerificationFailure', 'retry');
      const result = formToEdit({ ...values, onFailure: 'retry', maxAttempts: '2' }, step);
      assert.ok(result.ok);
      assert.equal(result.edit.type === 'updateStep' && result.edit.patch.onVerificationFailure, 'retry');
    });
  });

  describe("a step whose tool is not a known one (a newcomer's trial: a model's append_file)", () => {
    const unknownTool: StepView = { ...step, kind: 'tool', runner: 'append_file', agent: undefined, tool: 'append_file', args: 'path: notes.md\ncontent: |\n  one\n  two', input: undefined };
    const tools = ['read_file', 'write_file', 'edit_file'];
    const templates = { read_file: 'path: ""', write_file: 'path: ""\ncontent: ""', edit_file: 'path: ""\nedits:\n  - search: ""\n    replace: ""' };

    it('shows its own tool, marked unknown, not the first known one, and saves it as it was', () => {
      const values = initialValues(unknownTool, tools, { templates });
      assert.equal(values.tool, 'append_file');
      const options = fieldSpecs.tool.options?.(tools, values.tool ?? '') ?? [];
      assert.deepEqual(options, ['append_file', ...tools], 'the select holds the step\'s tool, or it would show read_file');
      assert.equal(fieldSpecs.tool.optionLabel?.('append_file', [], tools), 'append_file (not a known tool)');
      assert.equal(fieldSpecs.tool.optionLabel?.('edit_file', [], tools), 'edit_file');
      assert.deepEqual(fieldSpecs.tool.options?.(tools, 'edit_file'), tools, 'a known tool adds nothing');
      const saved = formToEdit(values, unknownTool);
      assert.ok(saved.ok);
      assert.equal(saved.edit.type === 'updateStep' ? saved.edit.patch.tool : undefined, 'append_file');
    });

    it("offers the chosen tool's arguments, keeping those whose names it has too", () => {
      const values = initialValues(unknownTool, tools, { templates });
      assert.equal(withFieldValue(values, 'tool', 'edit_file', templates).args, 'path: notes.md\nedits:\n  - search: ""\n    replace: ""');
      assert.equal(withFieldValue(values, 'tool', 'write_file', templates).args, values.args, 'write_file takes path and content both');
      // An optional parameter of the new tool is kept as well, when its names are known.
      const withLimit = { ...values, args: 'path: a.txt\nlimit: 20\ncontent: x' };
      assert.equal(withFieldValue(withLimit, 'tool', 'read_file', templates, { read_file: ['path', 'offset', 'limit'] }).args, 'path: a.txt\nlimit: 20');
      assert.equal(withFieldValue({ ...values, args: 'path: [unclosed' }, 'tool', 'edit_file', templates).args, 'path: [unclosed', 'what cannot be read stays as typed');
    });
  });
});
