import assert from 'node:assert/strict';
import { heuristicPlan } from '../../../../src/core/planner/heuristicPlan';
import { validatePlan } from '../../../../src/core/plan/validatePlan';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';

const registry = createToolRegistry(builtinTools());
const shape = (text: string, options = {}) => heuristicPlan(text, options).steps.map((step) => [step.id, step.kind, step.tool ?? step.agent ?? '', step.dependsOn.join(',')]);

describe('heuristicPlan', () => {
  it('without a model: tool steps where the text is a tool action, manual steps for the rest', () => {
    const plan = heuristicPlan('Add a function slugify to src/util.js with tests, then update the README. Run `npm test` and report the results.');
    assert.deepEqual(plan.steps.map((step) => [step.kind, step.tool ?? '', step.title]), [
      ['manual', '', 'Add a function slugify to src/util.js with tests'],
      ['manual', '', 'Update the README'],
      ['tool', 'run_command', 'Run `npm test` and report the results'],
    ]);
    assert.deepEqual(plan.steps[2]!.args, { argv: ['npm', 'test'] });
    assert.deepEqual(plan.agents, {});
    assert.deepEqual(validatePlan(plan, { tools: registry }), []);
  });

  it('with a model: agents instead of manual steps, with only the agents it uses, the question asked first', () => {
    const plan = heuristicPlan(
      'Add login with session cookies. Read API spec at https://example.com/spec.pdf. Which port should we use? Then write unit tests.',
      { model: true },
    );
    assert.deepEqual(
      plan.steps.map((step) => [step.kind, step.agent ?? '']),
      [
        ['clarification', ''],
        ['agent', 'coder'],
        ['agent', 'researcher'],
        ['agent', 'tester'],
      ],
    );
    assert.deepEqual(plan.steps.map((step) => step.attachments ?? []), [[], [], [{ kind: 'link', ref: 'https://example.com/spec.pdf' }], []]);
    assert.deepEqual(Object.keys(plan.agents).sort(), ['coder', 'researcher', 'tester']);
  });

  it('chains steps only where the text orders them; independent bullets run in parallel', () => {
    assert.deepEqual(shape('- Read src/a.ts\n- List the files in docs\n- Search for TODO'), [
      ['S001', 'tool', 'read_file', ''], ['S002', 'tool', 'list_files', ''], ['S003', 'tool', 'search_text', ''],
    ]);
    assert.deepEqual(shape('1. one\n2. two\n3. three').map((row) => row[3]), ['', 'S001', 'S002']);
    assert.deepEqual(shape('- Read src/a.ts\n- Read src/b.ts\n\nThen summarise both.').map((row) => row[3]), ['', '', 'S001,S002']);
  });

  it('chains a step that names what another produced: "it", or the same path', () => {
    assert.deepEqual(shape('Read src/app.ts. Explain it.').map((row) => row[3]), ['', 'S001']);
    assert.deepEqual(shape('In parallel:\n- Read src/a.ts\n- Rewrite src/a.ts with async/await\n- Read src/b.ts').map((row) => row[3]), ['', 'S001', '']);
  });

  it('splits "X and Y" actions in order, and several paths into parallel tool steps', () => {
    assert.deepEqual(shape('Search for legacy and delete src/legacy.js'), [['S001', 'tool', 'search_text', ''], ['S002', 'tool', 'delete_file', 'S001']]);
    const plan = heuristicPlan('Read src/a.ts and src/b.ts, then run `npm ci && npm test`');
    assert.deepEqual(plan.steps.map((step) => [step.title, step.dependsOn.join(',')]), [
      ['Read src/a.ts', ''], ['Read src/b.ts', ''], ['Run npm ci', 'S001,S002'], ['Run npm test', 'S003'],
    ]);
  });

  it('keeps attachments of the request out of the steps: they travel on every step that is not a tool call', () => {
    const selection = { kind: 'file' as const, ref: 'src/util.js#L3-L9', label: 'selection in src/util.js (lines 3-9)' };
    const plan = heuristicPlan('Refactor this into smaller functions, then run `npm test`', { attachments: [selection] });
    assert.deepEqual(plan.steps.map((step) => [step.kind, step.attachments ?? []]), [['manual', [selection]], ['tool', []]]);
  });

  it('uses a list lead-in ending with ":" as the objective, not as a step', () => {
    const plan = heuristicPlan('Clean up the repo:\n1. remove dist\n2. update the README');
    assert.equal(plan.objective, 'Clean up the repo');
    assert.equal(plan.steps.length, 2);
  });

  it("marks command steps and a model's network work for retry, never a person's step", () => {
    const request = 'Download https://x.dev/data.json. Then run `make build`. Then rename the file.';
    assert.deepEqual(heuristicPlan(request, { model: true }).steps.map((step) => [step.onFailure, step.maxAttempts]), [['retry', 3], ['retry', 3], ['stop', 1]]);
    assert.deepEqual(heuristicPlan(request).steps.map((step) => [step.kind, step.onFailure, step.maxAttempts]), [['manual', 'stop', 1], ['tool', 'retry', 3], ['manual', 'stop', 1]]);
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
    assert.deepEqual(plan.steps.map((step) => [step.tool, step.args]), [['search_text', { query: 'TODO' }]]);
  });

  it('refuses an empty request with a clear error', () => {
    assert.throws(() => heuristicPlan(' \n\t '), /The request is empty/);
  });

  it('caps long objectives and titles', () => {
    const plan = heuristicPlan(`Write ${'very '.repeat(100)}long docs`);
    assert.ok(plan.objective.length <= 240);
    assert.ok(plan.steps[0]!.title.length <= 80);
  });

  it('keeps an objective of 240 characters and a title of 80 whole, and cuts one character more with an ellipsis', () => {
    const objective = `Write ${'x'.repeat(234)}`;
    assert.equal(heuristicPlan(objective).objective, objective);
    assert.equal(heuristicPlan(`${objective}y`).objective, `${objective.slice(0, 239)}…`);
    const title = `Write ${'y'.repeat(74)}`;
    assert.equal(heuristicPlan(title).steps[0]?.title, title);
    assert.equal(heuristicPlan(`${title}z`).steps[0]?.title, `${title.slice(0, 79)}…`);
  });

  it('titles each of several calls by what it does, cut at 80 characters', () => {
    assert.deepEqual(heuristicPlan('Delete a.js and b.js').steps.map((step) => step.title), ['Delete a.js', 'Delete b.js']);
    assert.deepEqual(heuristicPlan('Read a.ts and b.ts').steps.map((step) => step.title), ['Read a.ts', 'Read b.ts']);
    const long = `npm run ${'x'.repeat(80)}`;
    assert.deepEqual(heuristicPlan(`Run npm ci then ${long}`).steps.map((step) => step.title), ['Run npm ci', `Run ${long}`.slice(0, 79) + '…']);
  });

  it('titles a step by its first line, spaces joined and the closing period dropped', () => {
    assert.equal(heuristicPlan('- Write  the   docs.\n  for the parser').steps[0]?.title, 'Write the docs');
  });

  it('dates the plan at the Unix epoch unless told otherwise', () => {
    assert.equal(heuristicPlan('Do a.').createdAt, '1970-01-01T00:00:00.000Z');
    assert.equal(heuristicPlan('Do a.', { createdAt: '2026-03-01T10:00:00.000Z' }).createdAt, '2026-03-01T10:00:00.000Z');
  });

  it('normalizes old Mac line ends, single curly quotes, non-breaking spaces, trailing tabs and runs of blank lines', () => {
    assert.equal(heuristicPlan('Tasks:\r- Say \u2018hi\u2019\u00A0now \t\n\n\n\n- Done').objective, 'Tasks');
    const plan = heuristicPlan('Say \u2018hi\u2019\u00A0now \t\r\r\r\rThen stop');
    assert.equal(plan.objective, "Say 'hi' now\n\nThen stop");
    assert.deepEqual(plan.steps.map((step) => step.title), ["Say 'hi' now", 'Stop']);
  });

  it('after a step that refers back, a following step waits only for the newest exits', () => {
    assert.deepEqual(shape('Read a.ts. Summarise it. Then deploy the site.').map(([id, , , deps]) => [id, deps]), [['S001', ''], ['S002', 'S001'], ['S003', 'S002']]);
  });
});

describe('heuristicPlan: verification', () => {
  const checksOf = (text: string, model = false) => heuristicPlan(text, { model }).steps.map((step) => [step.id, step.kind === 'tool' ? step.tool! : step.kind, step.checks ?? []]);

  it('checks that a file the request creates exists, for a person and for an agent', () => {
    assert.deepEqual(checksOf('create a file notes.md with a todo list'), [['S001', 'manual', [{ kind: 'file_exists', path: 'notes.md' }]]]);
    assert.deepEqual(checksOf('create a file notes.md with a todo list', true), [['S001', 'agent', [{ kind: 'file_exists', path: 'notes.md' }]]]);
    assert.deepEqual(checksOf('Create an empty file src/utils/index.ts'), [['S001', 'write_file', [{ kind: 'file_exists', path: 'src/utils/index.ts' }]]]);
  });

  it('checks that a deleted file is gone', () => {
    assert.deepEqual(checksOf('delete old.log'), [['S001', 'delete_file', [{ kind: 'file_absent', path: 'old.log' }]]]);
  });

  it('adds no check to a change it cannot check nor to a command, whose exit code is its result', () => {
    assert.deepEqual(checksOf('add a README section then run npm test', true), [['S001', 'agent', []], ['S002', 'run_command', []]]);
    const plan = heuristicPlan('add a README section then run npm test', { model: true });
    assert.deepEqual(plan.steps[1]?.dependsOn, ['S001'], 'the tests run after the change, so they check it');
  });

  it('gives every plan with checks to the built-in tools as valid', () => {
    for (const text of ['create a file notes.md with a todo list', 'delete old.log', 'Rename src/old.ts to src/new.ts, then run `npm test`']) {
      assert.deepEqual(validatePlan(heuristicPlan(text, { model: true }), { tools: registry }), [], text);
    }
  });
});

describe('heuristicPlan: ordered lists and questions first (issue 29, item 1)', () => {
  it("runs the issue's list in its order, the tests after the changes, and asks the question first", () => {
    const plan = heuristicPlan('- bump the version in package.json\n- add a CHANGELOG entry\n- run `npm test`\n- which license should we use?');
    assert.deepEqual(plan.steps.map((step) => [step.id, step.kind, step.title, step.dependsOn.join(',')]), [
      ['S001', 'clarification', 'Which license should we use?', ''],
      ['S002', 'manual', 'Bump the version in package.json', ''],
      ['S003', 'manual', 'Add a CHANGELOG entry', 'S002'],
      ['S004', 'tool', 'Run `npm test`', 'S003'],
    ]);
    assert.equal(plan.steps[0]?.input, 'Which license should we use?');
  });

  it('makes a question in prose a clarification without a model too, and the work after it waits for the answer', () => {
    assert.deepEqual(shape('Which database should we use? Then add the models.'), [['S001', 'clarification', '', ''], ['S002', 'manual', '', 'S001']]);
    assert.deepEqual(shape('Add the models. Which database should we use?'), [['S001', 'clarification', '', ''], ['S002', 'manual', '', '']]);
    assert.deepEqual(shape('Add a health endpoint. Which port should it listen on? Then write its tests.').map((row) => [row[1], row[3]]), [
      ['manual', ''], ['clarification', 'S001'], ['manual', 'S002'],
    ]);
  });

  it('runs items side by side only when clearly independent: disjoint files, or "in parallel"; a command still waits for them', () => {
    assert.deepEqual(shape('- Update README.md\n- Update docs/guide.md\n- run `npm run lint`').map((row) => row[3]), ['', '', 'S001,S002']);
    assert.deepEqual(shape('- Update README.md\n- Fix the typo in README.md\n- run `npm run lint`').map((row) => row[3]), ['', 'S001', 'S002']);
    assert.deepEqual(
      shape('Do these in parallel:\n- write the release notes\n- update the website copy\n- run `npm run build`').map((row) => row[3]),
      ['', '', 'S001,S002'],
    );
    assert.deepEqual(shape('Write the release notes. Update the website copy. Do both in parallel.').map((row) => row[3]), ['', '']);
    assert.deepEqual(shape('- write the release notes\n- update the website copy').map((row) => row[3]), ['', 'S001']);
  });

  it('orders the parts of a request in another language', () => {
    assert.deepEqual(shape('1、更新 CHANGELOG.md\n2、运行 `npm test`\n3、我们应该使用哪个许可证？'), [
      ['S001', 'clarification', '', ''], ['S002', 'manual', '', ''], ['S003', 'tool', 'run_command', 'S002'],
    ]);
    assert.deepEqual(shape('Mets à jour CHANGELOG.md, puis lance `npm test`'), [['S001', 'manual', '', ''], ['S002', 'tool', 'run_command', 'S001']]);
  });
});


describe('heuristicPlan: long runs in linear time (ReDoS)', () => {
  it('plans a request padded with spaces and tabs (52 s before) as one step', () => {
    assert.equal(heuristicPlan(`write a${' \t'.repeat(25_000)}b`).steps.length, 1);
  });
});
