// Entry point the extension host loads (extensionTestsPath): runs the bundled *.test.js files next to it with
// mocha, inside the real VS Code extension host, then prints one "[test-stats] {json}" line that the code shim
// writes to $TEST_STATS_FILE for scripts/test.mjs. A rejected run() makes the host exit non-zero, and so does
// a committed `.only` (forbidOnly), which would otherwise run one test and pass.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export async function run(): Promise<void> {
  // mocha comes from the repository's node_modules (it is kept out of the bundle).
  const { default: Mocha } = await import('mocha');
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec', forbidOnly: true });
  const testFiles = readdirSync(__dirname).filter((name) => name.endsWith('.test.js')).sort();
  if (testFiles.length === 0) throw new Error(`no *.test.js files next to ${__filename}`);
  for (const name of testFiles) mocha.addFile(join(__dirname, name));
  await mocha.loadFilesAsync();
  const failedTests: { title: string; file: string; message: string }[] = [];
  const stats = await new Promise<{ passed: number; failed: number; skipped: number }>((resolve) => {
    const runner = mocha.run(() => {
      resolve({ passed: runner.stats?.passes ?? 0, failed: runner.stats?.failures ?? 0, skipped: runner.stats?.pending ?? 0 });
    });
    // The failed tests' titles travel with the counts, so the closing lines of `npm test` name them.
    runner.on('fail', (test, error: unknown) => {
      const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
      failedTests.push({ title: test.fullTitle(), file: test.file ?? '', message: message.slice(0, 200) });
    });
  });
  console.log(`[test-stats] ${JSON.stringify({ ...stats, failedTests })}`);
  if (stats.failed > 0) throw new Error(`${stats.failed} integration test(s) failed`);
}
