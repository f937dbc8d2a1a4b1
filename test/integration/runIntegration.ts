// Runs the integration suite inside a real VS Code extension host through the ordinary @vscode/test-electron
// runTests(), with test/host/codeShim.cjs standing in for the VS Code executable (code-server + headless chromium).
// Bundles test/integration/*.ts into a fresh out/integration-XXXXXX/ (under the repository, so the extension host
// resolves mocha from its node_modules; one per run, so concurrent runs do not clash), assembles the test build of
// the extension beside them (the built dist/ with the extension bundle of testBuild/testExtension.ts, which adds the
// API the tests use) and opens a temporary copy of the demo workspace; both are removed afterwards.
// The counts reach scripts/test.mjs through $TEST_STATS_FILE (written by the shim). Usage: node --import tsx <this> [NAME.test.ts…]
import { runTests } from '@vscode/test-electron';
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
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

async function main(): Promise<number> {
  if (!existsSync(join(root, 'dist', 'extension.js'))) {
    console.error('dist/extension.js is missing: build the extension first (npm run build)');
    return 1;
  }
  mkdirSync(join(root, 'out'), { recursive: true });
  const outDir = mkdtempSync(join(root, 'out', 'integration-'));
  const workspace = mkdtempSync(join(tmpdir(), 'task-planner-integration-ws-'));
  try {
    // Test files named on the command line run alone (e.g. `checks.test.ts`); none named: all of them.
    const only = process.argv.slice(2).filter((arg) => arg.endsWith('.test.ts'));
    const sources = readdirSync(__dirname).filter((name) => name === 'index.ts' || (name.endsWith('.test.ts') && (only.length === 0 || only.includes(name))));
    await esbuild.build({
      entryPoints: sources.map((name) => join(__dirname, name)),
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
    cpSync(join(root, 'test', 'fixtures', 'demo-workspace'), workspace, { recursive: true });
    return await runTests({
      vscodeExecutablePath: join(root, 'test', 'host', 'codeShim.cjs'),
      // Task Planner's test build, plus two fixtures: a scripted chat model (vscodeLm.test.ts) and the empty extension whose
      // activation is the baseline of ours (activation.test.ts).
      extensionDevelopmentPath: [extension, join(root, 'test', 'fixtures', 'fakeChatModel'), join(root, 'test', 'fixtures', 'emptyExtension')],
      extensionTestsPath: join(outDir, 'index.js'),
      launchArgs: [workspace],
    });
  } catch (error) {
    console.error(`integration tests failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    rmSync(workspace, { recursive: true, force: true });
    rmSync(outDir, { recursive: true, force: true });
  }
}

main().then((code) => process.exit(code), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
