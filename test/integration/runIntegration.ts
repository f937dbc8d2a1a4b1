// Runs the integration suite inside a real VS Code extension host through the ordinary @vscode/test-electron
// runTests(), with test/host/codeShim.cjs standing in for the VS Code executable (code-server + headless chromium).
// Bundles test/integration/*.ts into a fresh out/integration-XXXXXX/ (under the repository, so the extension host
// resolves mocha from its node_modules; one per run, so concurrent runs do not clash) and opens a temporary copy of
// the demo workspace; both are removed afterwards.
// The counts reach scripts/test.mjs through $TEST_STATS_FILE (written by the shim). Usage: node --import tsx <this>
import { runTests } from '@vscode/test-electron';
import * as esbuild from 'esbuild';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');

async function main(): Promise<number> {
  if (!existsSync(join(root, 'dist', 'extension.js'))) {
    console.error('dist/extension.js is missing: build the extension first (npm run build)');
    return 1;
  }
  mkdirSync(join(root, 'out'), { recursive: true });
  const outDir = mkdtempSync(join(root, 'out', 'integration-'));
  const workspace = mkdtempSync(join(tmpdir(), 'task-planner-integration-ws-'));
  try {
    const sources = readdirSync(__dirname).filter((name) => name === 'index.ts' || name.endsWith('.test.ts'));
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
    cpSync(join(root, 'test', 'fixtures', 'demo-workspace'), workspace, { recursive: true });
    return await runTests({
      vscodeExecutablePath: join(root, 'test', 'host', 'codeShim.cjs'),
      // Task Planner, plus two fixtures: a scripted chat model (vscodeLm.test.ts) and the empty extension whose
      // activation is the baseline of ours (activation.test.ts).
      extensionDevelopmentPath: [root, join(root, 'test', 'fixtures', 'fakeChatModel'), join(root, 'test', 'fixtures', 'emptyExtension')],
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
