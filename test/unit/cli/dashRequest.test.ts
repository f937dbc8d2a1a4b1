import assert from 'node:assert/strict';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

describe('task-planner CLI: a request that starts with "-" (issue 28 item 15)', function () {
  this.timeout(60_000);
  const workspace = temporaryDirectory('cli-dash-', { perSuite: true });
  const request = '- bump the version\n- run npm test';

  it('reads a request that starts with "- " and a space as text, not as an option', async () => {
    const { code, stderr } = await runCli(['plan', request, '--workspace', workspace.path]);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /S001 Bump the version/);
    assert.match(stderr, /S002 Run npm test/);
  });

  it('takes an answer that starts with "- " as text too', async () => {
    const { stderr } = await runCli(['resume', 'no-such-run', '--answer', '- yes', '--workspace', workspace.path]);
    assert.doesNotMatch(stderr, /Unknown option|ambiguous/);
  });

  it('says to put "--" before other text that starts with "-", in the error and the help', async () => {
    const dashed = await runCli(['plan', '-fix the tests', '--workspace', workspace.path]);
    assert.equal(dashed.code, 2);
    assert.match(dashed.stderr, /task-planner plan --workspace DIR -- "-/);
    const help = await runCli(['--help']);
    assert.match(help.stdout, /starts with "-"[^]*-- "/);
  });
});
