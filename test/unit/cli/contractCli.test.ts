import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeOpenAiServer } from '../../fakes/fakeOpenAiServer';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

describe('task-planner: attachments, the model critique and approval in the review', function () {
  this.timeout(60_000);
  const workspace = temporaryDirectory('cli-contract-');
  const outside = temporaryDirectory('cli-contract-outside-');

  const planFile = (attachments: unknown[]): string => {
    const file = join(workspace.path, 'plan.json');
    const plan = { objective: 'o', steps: [{ id: 'S1', title: 'Summarise', kind: 'agent', input: 'Summarise the spec', attachments }] };
    writeFileSync(file, JSON.stringify(plan));
    return file;
  };

  it('run refuses a plan whose attachment is missing, naming the file and what to do, before anything starts', async () => {
    const file = planFile([{ kind: 'file', ref: 'docs/spec.md' }]);
    const { code, stderr } = await runCli(['run', file, '--workspace', workspace.path, '--yes']);
    assert.equal(code, 2, stderr);
    assert.match(stderr, /Step S1 attaches the file "docs\/spec\.md", which does not exist in the workspace\./);
    assert.match(stderr, /Put the file in place, or edit the "attachments" of that step in .*plan\.json \(another file, or none\); nothing was started\./);
  });

  it('run refuses a plan whose attached address its step cannot read, saying what is wrong (issue 29, seed 000)', async () => {
    const file = planFile([{ kind: 'link', ref: 'ftp://example.com/spec.pdf' }]);
    const { code, stderr } = await runCli(['run', file, '--workspace', workspace.path, '--yes']);
    assert.equal(code, 2, stderr);
    assert.match(
      stderr,
      /Step S1 attaches the link "ftp:\/\/example\.com\/spec\.pdf", which cannot be read: fetch_url reads only http:\/\/ and https:\/\/ addresses, not "ftp:" ones\./,
    );
    assert.match(stderr, /Correct the address, or edit the "attachments" of that step in .*plan\.json \(another file, or none\); nothing was started\./);
  });

  it('attack: run refuses an attachment that is a link out of the workspace, or has control characters in its name', async () => {
    writeFileSync(join(outside.path, 'secret.txt'), 'SECRET');
    mkdirSync(join(workspace.path, 'docs'), { recursive: true });
    symlinkSync(join(outside.path, 'secret.txt'), join(workspace.path, 'docs', 'leak.md'));
    const file = planFile([{ kind: 'file', ref: 'docs/leak.md' }, { kind: 'image', ref: 'shot\u001b]0;pwned\u0007.png' }]);
    const { code, stderr } = await runCli(['run', file, '--workspace', workspace.path, '--yes']);
    assert.equal(code, 2, stderr);
    assert.match(stderr, /"docs\/leak\.md", which cannot be given to it: it leads outside the workspace through a symbolic link\./);
    assert.match(stderr, /attaches the image "shot\\u001b\]0;pwned\\u0007\.png", which cannot be given to it/);
    assert.doesNotMatch(stderr, /\u001b|\u0007|SECRET/);
  });

  it('run gives an agent step its attachments and the --strategy guidance', async () => {
    const server = await new FakeOpenAiServer().start();
    try {
      mkdirSync(join(workspace.path, 'docs'), { recursive: true });
      writeFileSync(join(workspace.path, 'docs', 'spec.md'), 'The spec: keep it short.');
      const file = planFile([{ kind: 'file', ref: 'docs/spec.md' }, { kind: 'link', ref: 'https://example.com/issue/7' }]);
      server.enqueue({ kind: 'message', content: 'Summarised.' });
      const { code, stderr } = await runCli(
        [
          'run',
          file,
          '--workspace',
          workspace.path,
          '--base-url',
          server.baseURL,
          '--model',
          'gpt-4o-mini',
          '--strategy',
          'goal_decompose_route_synthesise',
          '--yes',
        ],
        { TASK_PLANNER_API_KEY: 'sk-x' },
      );
      assert.equal(code, 0, stderr);
      const messages = JSON.stringify(server.chatRequests.at(-1)?.body?.messages);
      assert.match(messages, /break the goal into concrete sub-problems before assigning tools to each one/);
      assert.match(messages, /The spec: keep it short\./);
      assert.match(messages, /https:\/\/example\.com\/issue\/7/);
    } finally {
      await server.close();
    }
  });

  describe('plan --model-critique', () => {
    let server: FakeOpenAiServer;
    beforeEach(async () => {
      server = await new FakeOpenAiServer().start();
    });
    afterEach(() => server.close());
    const plan = {
      objective: 'x',
      steps: [
        { id: 'S1', title: 'Write the notes', kind: 'tool', tool: 'write_file', args: { path: 'NOTES.md', content: '# Notes\n' }, dependsOn: [] },
        { id: 'S2', title: 'Read them', kind: 'tool', tool: 'read_file', args: { path: 'NOTES.md' }, dependsOn: ['S1'] },
      ],
    };
    const planning = (extra: string[] = []) =>
      runCli(['plan', 'Write notes', '--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'gpt-4o-mini', ...extra, '--json'], {
        TASK_PLANNER_API_KEY: 'sk-x',
      });

    it('lists the model\'s findings with the static ones, marked, with the tokens it took; says which steps ask for approval', async () => {
      server.enqueue(
        { kind: 'message', content: JSON.stringify(plan) },
        { kind: 'message', content: JSON.stringify({ findings: [{ severity: 'warning', stepId: 'S1', message: 'Say what the notes hold.' }] }) },
      );
      const { code, stderr } = await planning(['--model-critique']);
      assert.equal(code, 0, stderr);
      assert.match(stderr, /1\. S1 Write the notes \(tool write_file, asks approval\)/);
      assert.match(stderr, /2\. S2 Read them \(tool read_file, after S1\)\n/);
      assert.match(stderr, / - warning S1 \(model\): Say what the notes hold\./);
      assert.match(stderr, /Model critique: \d+ tokens, (\$[\d.]+|cost unknown)\.\n/);
      assert.equal(server.chatRequests.length, 2);
    });

    it('attack: a critic that answers garbage leaves the static review, saying why', async () => {
      server.enqueue(
        { kind: 'message', content: JSON.stringify(plan) },
        { kind: 'message', content: 'lol no' },
        { kind: 'message', content: '<<<still not json>>>' },
      );
      const { code, stderr } = await planning(['--model-critique']);
      assert.equal(code, 0, stderr);
      assert.match(stderr, /Critique: Score \d+\/10[:.]/);
      assert.match(
        stderr,
        /Model critique: \d+ tokens, .*The model critique failed \(its reply could not be read as findings\); the review shows the static critic's findings\./,
      );
      assert.doesNotMatch(stderr, /\(model\)/);
    });

    it('asks no critique without the flag', async () => {
      server.enqueue({ kind: 'message', content: JSON.stringify(plan) });
      const { code, stderr } = await planning();
      assert.equal(code, 0, stderr);
      assert.equal(server.chatRequests.length, 1);
      assert.doesNotMatch(stderr, /Model critique/);
    });
  });

  it('documents --model-critique and --strategy for run in the help text', async () => {
    const { stdout } = await runCli(['--help']);
    assert.match(stdout, /--model-critique {4}"plan": a model reviews the plan too/);
    assert.match(stdout, /the agents of agent steps work by it \("plan", "run", "resume"\)/);
  });
});
