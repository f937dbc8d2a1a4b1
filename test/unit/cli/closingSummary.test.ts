import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

describe('task-planner run: the closing summary', function () {
  this.timeout(60_000);
  const workspace = temporaryDirectory('cli-summary-');

  it('lists what each step produced and the changed files, with a file\'s control characters escaped', async () => {
    writeFileSync(join(workspace.path, 'data.json'), '{"title": "evil\u001b]0;owned\u0007\u001b[2J\u202etxt.exe"}\n');
    const plan = {
      objective: 'Copy the data',
      steps: [
        { id: 'step_1', title: 'Read the data', tool: 'read_file', args: { path: 'data.json' } },
        { id: 'step_2', title: 'Write it', tool: 'write_file', args: { path: 'processed.json', content: '$step_1' }, dependsOn: ['step_1'] },
        { id: 'step_3', title: 'Read a \u001b[31mmissing\r file', tool: 'read_file', args: { path: 'missing.txt' }, critical: false },
      ],
    };
    writeFileSync(join(workspace.path, 'plan.json'), JSON.stringify(plan));
    const { code, stdout, stderr } = await runCli(['run', join(workspace.path, 'plan.json'), '--workspace', workspace.path, '--yes']);
    assert.equal(code, 5, `a step failed, so not every step is done (exit 5)\n${stderr}${stdout}`);
    assert.equal(readFileSync(join(workspace.path, 'processed.json'), 'utf8'), readFileSync(join(workspace.path, 'data.json'), 'utf8'));
    assert.doesNotMatch(stdout + stderr, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/, 'no raw control character reaches the terminal');
    assert.match(stdout, /^Run \S+ finished with 1 failed in [^:]+: 2 of 3 steps completed; 1 file changed\.$/m);
    assert.match(stdout, /^ {2}Reason: Step step_3 failed\.$/m);
    assert.match(stderr, /^Run \S+ finished, not every step done: Step step_3 failed\.$/m);
    // The result's fields in words; the file's ESC, BEL and text-direction override are escaped at the terminal.
    assert.match(stdout, /^ {2}✔ step_1 Read the data: path: data\.json, content: \{"title": "evil\\u001b\]0;owned\\u0007\\u001b\[2J\\u202etxt\.exe"\}/m);
    // A title's raw control characters: the carriage return is whitespace on one line, ESC shows as its escape.
    assert.match(stdout, /^ {2}✘ step_3 Read a \\u001b\[31mmissing file: failed \(the run went on without it\): File not found: missing\.txt/m);
    assert.match(stdout, /^Failures:\n {2}step_3: File not found: missing\.txt/m);
    assert.match(stdout, /^Changed files:\n {2}processed\.json$/m);
  });
});
