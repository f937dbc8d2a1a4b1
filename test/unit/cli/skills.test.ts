import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FakeOpenAiServer, type FakeRequest } from '../../fakes/fakeOpenAiServer';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

/** The text of a request's user message (the step prompt). */
function stepPrompt(request: FakeRequest | undefined): string {
  const user = request?.body?.messages?.find((message) => message.role === 'user');
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content ?? '');
}

describe('task-planner run and plan with the workspace\'s skills and instructions', function () {
  this.timeout(60_000);
  const workspace = temporaryDirectory('cli-skills-');
  const outside = temporaryDirectory('cli-skills-outside-');
  let server: FakeOpenAiServer;
  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
  });
  afterEach(() => server.close());

  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(workspace.path, path)), { recursive: true });
    writeFileSync(join(workspace.path, path), text);
  };
  const run = (plan: unknown, ...flags: string[]) => {
    const file = join(workspace.path, 'work.plan.json');
    writeFileSync(file, JSON.stringify(plan));
    return runCli(['run', file, '--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'gpt-4o-mini', '--json', '--concurrency', '1', ...flags]);
  };

  beforeEach(() => {
    write('.github/skills/release-notes/SKILL.md', '---\nname: release-notes\ndescription: How this project writes release notes.\ntags: [docs]\n---\nSKILL-BODY: group changes by package, newest first.\n');
    write('.claude/skills/unit-tests/SKILL.md', '---\nname: unit-tests\ndescription: How to write unit tests here.\ntags: [testing]\n---\nTESTS-BODY: use mocha.\n');
    write('.github/instructions/typescript.instructions.md', '---\napplyTo: "**/*.ts"\n---\nTS-RULE: no default exports.\n');
    write('AGENTS.md', 'ROOT-AGENTS: run npm test before you finish.\n');
    write('packages/web/AGENTS.md', 'WEB-AGENTS: use the design tokens.\n');
  });

  it('gives a step the text of the skill it names, and instructions only to the steps whose files they apply to', async () => {
    server.enqueue({ kind: 'message', content: 'Notes written.' }, { kind: 'message', content: 'Summary.' }, { kind: 'message', content: 'Done.' });
    const result = await run({
      objective: 'Release',
      steps: [
        { id: 'S1', kind: 'agent', agent: 'direct', skills: ['release-notes'], input: 'Write the release notes for src/app.ts' },
        { id: 'S2', kind: 'agent', agent: 'direct', input: 'Summarise docs/guide.md', dependsOn: ['S1'] },
        { id: 'S3', kind: 'agent', agent: 'direct', input: 'Restyle packages/web/button.ts', dependsOn: ['S2'] },
      ],
    });
    assert.equal(result.code, 0, result.stderr);
    const prompts = server.chatRequests.map(stepPrompt);
    const of = (id: string): string => prompts.find((prompt) => prompt.includes(`## Your step: ${id}`)) ?? assert.fail(`no request for ${id}`);
    assert.match(of('S1'), /## Skills for this step[\s\S]*Skill release-notes \(\.github\/skills\/release-notes\/SKILL\.md[\s\S]*SKILL-BODY: group changes by package/);
    assert.match(of('S1'), /TS-RULE/);
    assert.match(of('S1'), /ROOT-AGENTS/);
    assert.doesNotMatch(of('S2'), /SKILL-BODY|TS-RULE|TESTS-BODY/);
    assert.match(of('S2'), /ROOT-AGENTS/);
    assert.match(of('S3'), /WEB-AGENTS/);
    assert.doesNotMatch(of('S3'), /ROOT-AGENTS|SKILL-BODY/);
    assert.match(of('S3'), /TS-RULE/);
    // The skill's text comes after the step's own text, in the step prompt, not in the system prompt.
    assert.ok(of('S1').indexOf('## Your step: S1') < of('S1').indexOf('SKILL-BODY'));
  });

  it('gives every agent step the skills tagged with one of the plan\'s context tags', async () => {
    server.enqueue({ kind: 'message', content: 'Done.' });
    const result = await run({ objective: 'Test', contextTags: ['Testing'], steps: [{ id: 'S1', kind: 'agent', agent: 'direct', input: 'Add a test' }] });
    assert.equal(result.code, 0, result.stderr);
    assert.match(stepPrompt(server.chatRequests[0]), /Skill unit-tests[\s\S]*TESTS-BODY/);
    assert.doesNotMatch(stepPrompt(server.chatRequests[0]), /SKILL-BODY/);
  });

  it('refuses a plan that names a skill the workspace lacks, naming the skills it has, before any model call', async () => {
    const result = await run({ objective: 'x', steps: [{ id: 'S1', kind: 'agent', agent: 'direct', skills: ['../x'], input: 'x' }] });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /S1.*"\.\.\/x".*not in the catalogue; available: release-notes, unit-tests/);
    assert.equal(server.chatRequests.length, 0);
  });

  it('validate: checks the skills steps name against the workspace given with --workspace, and only then', async () => {
    const file = join(workspace.path, 'check.plan.json');
    writeFileSync(file, JSON.stringify({ objective: 'x', steps: [{ id: 'S1', kind: 'agent', skills: ['release-notes', 'nope'], input: 'x' }] }));
    const checked = await runCli(['validate', file, '--workspace', workspace.path]);
    assert.equal(checked.code, 1, checked.stderr);
    assert.match(checked.stdout, /error unknown_skill \[S1\]: Step "S1" uses the skill "nope", which is not in the catalogue; available: release-notes, unit-tests\./);
    const unchecked = await runCli(['validate', file]);
    assert.equal(unchecked.code, 0, unchecked.stdout);
  });

  it('plan: shows the model the skills, and lists under each step the instructions and skills it will use, leaving out a name that could hide text', async () => {
    const plan = {
      objective: 'Release',
      steps: [
        { id: 'S1', title: 'Notes', kind: 'agent', dependsOn: [], input: 'Write notes for src/app.ts', skills: ['release-notes', 'gone', 'evil\u202e\u001b[2J'] },
        { id: 'S2', title: 'Read', kind: 'tool', dependsOn: [], tool: 'read_file', args: { path: 'src/app.ts' } },
      ],
    };
    // The unknown skill is a validation error: the model gets one repair round, and answers the same.
    server.enqueue({ kind: 'message', content: JSON.stringify(plan) }, { kind: 'message', content: JSON.stringify(plan) });
    const result = await runCli(['plan', 'Write the release notes', '--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'gpt-4o-mini']);
    // A plan naming a skill the workspace lacks cannot start (as `run` refuses it): bad input, once the plan is shown.
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /The plan cannot start as it is; nothing was started:\n {2}- Step "S1" uses the skill "gone"/);
    const system = server.chatRequests[0]?.body?.messages?.find((message) => message.role === 'system')?.content;
    assert.match(String(system), /- release-notes \[docs\]: How this project writes release notes\.\n- unit-tests \[testing\]: How to write unit tests here\./);
    assert.match(
      result.stderr,
      /1\. S1 Notes \(agent default, may ask approval\)\n {5}instructions: AGENTS\.md, \.github\/instructions\/typescript\.instructions\.md\n {5}skills: release-notes\n {5}missing skills: gone\n/,
    );
    // A name holding control characters is no skill's: left out of the plan, with a warning that does not echo it.
    assert.match(result.stderr, /warning: Step "S1": "skills": ignored a name holding control characters\./);
    assert.match(result.stderr, /2\. S2 Read \(tool read_file\)\n/);
    assert.doesNotMatch(result.stderr, /[\u202e\u001b]/);
  });

  it('leaves out a 5 MB SKILL.md, a skill named like a path and a skills folder linked out of the workspace, saying which and why, and still runs', async () => {
    write('.github/skills/huge/SKILL.md', `---\nname: huge\ndescription: big\n---\n${'x'.repeat(5 * 1024 * 1024)}`);
    write('.github/skills/sneaky/SKILL.md', '---\nname: ../../etc\ndescription: a path\n---\nPATH-BODY\n');
    mkdirSync(join(outside.path, 'secret'), { recursive: true });
    writeFileSync(join(outside.path, 'secret', 'SKILL.md'), '---\nname: secret\ndescription: outside\n---\nOUTSIDE-BODY\n');
    symlinkSync(outside.path, join(workspace.path, '.claude', 'skills', 'linked'));
    server.enqueue({ kind: 'message', content: 'Done.' });
    const result = await run({ objective: 'x', contextTags: ['docs', 'testing'], steps: [{ id: 'S1', kind: 'agent', agent: 'direct', input: 'x' }] });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /\.github\/skills\/huge\/SKILL\.md: It is larger than 256 KiB/);
    assert.match(result.stderr, /\.github\/skills\/sneaky\/SKILL\.md: The skill was left out: its name "\.\.\/\.\.\/etc" is not lowercase letters/);
    const prompt = stepPrompt(server.chatRequests[0]);
    assert.doesNotMatch(prompt, /OUTSIDE-BODY|PATH-BODY|xxxxxxxxxx/);
    assert.match(prompt, /SKILL-BODY[\s\S]*TESTS-BODY/);
    assert.ok(JSON.stringify(server.chatRequests[0]?.body).length < 200_000, 'the request stays small');
  });
});
