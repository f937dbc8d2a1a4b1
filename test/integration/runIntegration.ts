// Runs the integration suite inside a real VS Code extension host through the ordinary @vscode/test-electron
// runTests(), with test/host/codeShim.cjs standing in for the VS Code executable (code-server + headless chromium).
// Bundles test/integration/*.ts into a fresh out/integration-XXXXXX/ (under the repository, so the extension host
// resolves mocha from its node_modules; one per run, so concurrent runs do not clash), assembles the test build of
// the extension beside them (the built dist/ with the extension bundle of testBuild/testExtension.ts, which adds the
// API the tests use) and opens a temporary copy of the demo workspace; both are removed afterwards. multiRoot*.test.ts
// run in a second host, opened on a .code-workspace of two copies of the demo workspace (`api` and `web`).
// The counts reach scripts/test.mjs through $TEST_STATS_FILE (written by the shim). Usage: node --import tsx <this> [NAME.test.ts…]
import { runTests, TestRunFailedError } from '@vscode/test-electron';
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');

/**
 * The extension as built in dist/ (manifest and its texts, media, runtime, webview), with the test build's extension bundle
 * in place of the shipped one: a folder inside `outDir` to load as the development extension.
 */
function assembleTestExtension(outDir: string): string {
  const extension = join(outDir, 'extension');
  mkdirSync(join(extension, 'dist'), { recursive: true });
  cpSync(join(root, 'package.json'), join(extension, 'package.json'));
  // The manifest's texts and the string bundle: without them the titles read %key%.
  cpSync(join(root, 'package.nls.json'), join(extension, 'package.nls.json'));
  cpSync(join(root, 'l10n'), join(extension, 'l10n'), { recursive: true });
  cpSync(join(root, 'media'), join(extension, 'media'), { recursive: true });
  // What the packaged extension ships beside its extension bundle (see .vscodeignore), with source maps.
  for (const name of readdirSync(join(root, 'dist'))) if (/^(runtime|webview)\.js(\.map)?$|\.wasm$/.test(name)) cpSync(join(root, 'dist', name), join(extension, 'dist', name));
  const built = spawnSync(process.execPath, ['esbuild.mjs', '--test-extension', extension], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`could not bundle the test build of the extension (exit ${built.status ?? built.signal})`);
  return extension;
}

/** Test files named so run in a workspace of two folders (`api` and `web`, copies of the demo workspace) opened from a .code-workspace file. */
const multiRootTest = /^multiRoot.*\.test\.ts$/;

/** Bundles `tests` (with index.ts) and runs them in one extension host opened on `open` (a folder or a workspace file in `workspace`). */
async function launch(tests: string[], kind: 'folder' | 'multi-root'): Promise<number> {
  const outDir = mkdtempSync(join(root, 'out', 'integration-'));
  const workspace = mkdtempSync(join(tmpdir(), 'task-planner-integration-ws-'));
  try {
    await esbuild.build({
      entryPoints: ['index.ts', ...tests].map((name) => join(__dirname, name)),
      outdir: outDir,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      sourcemap: 'inline',
      external: ['vscode', 'mocha'],
      logLevel: 'warning',
    });
    const extension = assembleTestExtension(outDir);
    let open = workspace;
    if (kind === 'folder') {
      cpSync(join(root, 'test', 'fixtures', 'demo-workspace'), workspace, { recursive: true });
    } else {
      for (const name of ['api', 'web']) cpSync(join(root, 'test', 'fixtures', 'demo-workspace'), join(workspace, name), { recursive: true });
      open = join(workspace, 'two-folders.code-workspace');
      writeFileSync(open, JSON.stringify({ folders: [{ path: 'api' }, { path: 'web' }] }, null, 2));
    }
    // runTests() rejects when the host exits non-zero (a failed test): that is a result, not an error of this
    // script, so it becomes exit code 1 and the counts the host wrote and the next launch are kept.
    return await runTests({
      vscodeExecutablePath: join(root, 'test', 'host', 'codeShim.cjs'),
      // Task Planner's test build, plus two fixtures: a scripted chat model with a language-model tool (vscodeLm.test.ts,
      // editorTools.test.ts) and the empty extension whose activation is the baseline of ours (activation.test.ts).
      extensionDevelopmentPath: [extension, join(root, 'test', 'fixtures', 'fakeChatModel'), join(root, 'test', 'fixtures', 'emptyExtension')],
      extensionTestsPath: join(outDir, 'index.js'),
      launchArgs: [open],
    }).catch((error: unknown) => {
      if (!(error instanceof TestRunFailedError)) throw error;
      console.error(`integration host (${kind}): ${error.message}`);
      return error.code ?? 1;
    });
  } finally {
    rmSync(workspace, { recursive: true, force: true });
    rmSync(outDir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  if (!existsSync(join(root, 'dist', 'extension.js'))) {
    console.error('dist/extension.js is missing: build the extension first (npm run build)');
    return 1;
  }
  mkdirSync(join(root, 'out'), { recursive: true });
  try {
    // Test files named on the command line run alone (e.g. `checks.test.ts`); none named: all of them.
    const only = process.argv.slice(2).filter((arg) => arg.endsWith('.test.ts'));
    const tests = readdirSync(__dirname).filter((name) => name.endsWith('.test.ts') && (only.length === 0 || only.includes(name)));
    // A name that is no test file here ran nothing and said so by passing: it fails instead.
    const unknown = only.filter((name) => !tests.includes(name));
    if (unknown.length > 0) {
      console.error(`No integration test file named ${unknown.join(', ')} in test/integration (name the file alone, e.g. checks.test.ts).`);
      return 2;
    }
    const inFolder = tests.filter((name) => !multiRootTest.test(name));
    const inMultiRoot = tests.filter((name) => multiRootTest.test(name));
    const launches = [
      ...(inFolder.length > 0 ? [{ tests: inFolder, kind: 'folder' as const }] : []),
      ...(inMultiRoot.length > 0 ? [{ tests: inMultiRoot, kind: 'multi-root' as const }] : []),
    ];
    // Each host writes its counts to a file of its own; scripts/test.mjs reads their sum from $TEST_STATS_FILE.
    const statsFile = process.env['TEST_STATS_FILE'];
    const totals = { passed: 0, failed: 0, skipped: 0, failedTests: [] as unknown[] };
    let code = 0;
    for (const [index, { tests: files, kind }] of launches.entries()) {
      if (statsFile) process.env['TEST_STATS_FILE'] = `${statsFile}.${index}`;
      code = Math.max(code, await launch(files, kind));
      if (statsFile && existsSync(`${statsFile}.${index}`)) {
        const counts = JSON.parse(readFileSync(`${statsFile}.${index}`, 'utf8')) as Partial<typeof totals>;
        rmSync(`${statsFile}.${index}`, { force: true });
        totals.passed += counts.passed ?? 0;
        totals.failed += counts.failed ?? 0;
        totals.skipped += counts.skipped ?? 0;
        totals.failedTests.push(...(counts.failedTests ?? []));
      }
    }
    if (statsFile) {
      process.env['TEST_STATS_FILE'] = statsFile;
      writeFileSync(statsFile, JSON.stringify(totals));
    }
    return code;
  } catch (error) {
    console.error(`integration tests failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

main().then((code) => process.exit(code), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
