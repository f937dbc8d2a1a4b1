import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Names only the test build's API has (test/integration/testBuild/): the shipped bundles must not hold them. */
const testHooks = ['setPlanReview', 'planTreeLabels', 'planTreeNodes', 'statusBarText', 'activationMs', 'openRequestEditor', 'nextPrompt', 'receivedMessages', 'postedMessages', 'TrafficRecording'];

/** Runs esbuild.mjs with `args`; throws with its output when it fails. */
function build(args: string[]): void {
  const built = spawnSync(process.execPath, ['esbuild.mjs', ...args], { encoding: 'utf8' });
  assert.equal(built.status, 0, `node esbuild.mjs ${args.join(' ')} failed:\n${built.stdout}${built.stderr}`);
}

describe('architecture: the shipped extension holds no test hooks', function () {
  this.timeout(180_000);
  const folder = mkdtempSync(join(tmpdir(), 'task-planner-bundles-'));
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('the production bundles (as `npm run package` builds them) name none of the test API; the test build names all of it', () => {
    build(['--production', '--outdir', join(folder, 'production')]);
    build(['--test-extension', join(folder, 'test')]);
    const shipped = ['extension.js', 'runtime.js', 'webview.js'].map((name) => ({ name, text: readFileSync(join(folder, 'production', name), 'utf8') }));
    assert.ok(shipped.every((bundle) => bundle.text.length > 1_000), 'a production bundle is empty');
    assert.ok(shipped[0]!.text.includes('taskPlanner.planTask'), 'the production extension bundle does not register its commands');
    const found = shipped.flatMap((bundle) => testHooks.filter((name) => bundle.text.includes(name)).map((name) => `${bundle.name}: ${name}`));
    assert.deepEqual(found, []);
    const testBundle = readFileSync(join(folder, 'test', 'dist', 'extension.js'), 'utf8');
    assert.deepEqual(testHooks.filter((name) => !testBundle.includes(name)), [], 'names the test build does not have prove nothing');
  });
});
