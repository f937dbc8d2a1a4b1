import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../arch/importGraph';
import { vsixProblems } from '../arch/vsixContents';
import { listZip, type ZipEntry } from '../support/listZip';

// `npm run package` exactly as a user runs it (production build into dist/, then vsce); the
// extra --out comes last on vsce's command line, where it wins, so the package lands in a
// temporary folder and the working tree keeps no .vsix.
describe('package: npm run package', function () {
  this.timeout(180_000);
  const folder = mkdtempSync(join(tmpdir(), 'task-planner-vsix-'));
  const vsix = join(folder, 'task-planner.vsix');
  let output = '';
  let status: number | null = null;
  let entries: ZipEntry[] = [];
  before(() => {
    const packaged = spawnSync('npm', ['run', 'package', '--', '--out', vsix], { cwd: projectRoot, encoding: 'utf8' });
    output = `${packaged.stdout}${packaged.stderr}`;
    status = packaged.status;
    if (status === 0) entries = listZip(readFileSync(vsix));
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('packages without an error or a warning from vsce', () => {
    assert.equal(status, 0, `npm run package failed:\n${output}`);
    assert.match(output, /DONE\s+Packaged:/);
    assert.deepEqual(output.split('\n').filter((line) => /WARNING|ERROR/i.test(line)), [], output);
  });

  it('holds only allowlisted files, every required one, and stays under 3 MB', () => {
    assert.ok(entries.length > 0, `no package to list:\n${output}`);
    const bytes = statSync(vsix).size;
    assert.deepEqual(vsixProblems(entries, bytes), []);
    console.log(`      ${entries.length} files, ${bytes} bytes`);
  });

  it('ships every file the manifest names: the icons, the walkthrough pages and the JSON Schema of plan files', () => {
    const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
      icon: string;
      contributes: {
        viewsContainers: { activitybar: { icon: string }[] };
        walkthroughs: { steps: { media: { markdown?: string; image?: string } }[] }[];
        jsonValidation: { url: string }[];
      };
    };
    const named = [
      manifest.icon,
      ...manifest.contributes.viewsContainers.activitybar.map((container) => container.icon),
      ...manifest.contributes.walkthroughs.flatMap((walkthrough) => walkthrough.steps.flatMap((step) => [step.media.markdown ?? [], step.media.image ?? []].flat())),
      ...manifest.contributes.jsonValidation.map((validation) => validation.url.replace(/^\.\//, '')),
    ];
    assert.ok(named.length > 5);
    const shipped = new Set(entries.map((entry) => entry.name));
    assert.deepEqual(named.filter((path) => !shipped.has(`extension/${path}`)), []);
  });

  it('ships the minified bundles just built into dist/, without source maps', () => {
    for (const name of ['extension.js', 'runtime.js', 'webview.js']) {
      const built = readFileSync(join(projectRoot, 'dist', name), 'utf8');
      const entry = entries.find((candidate) => candidate.name === `extension/dist/${name}`);
      assert.equal(entry?.size, Buffer.byteLength(built), `dist/${name} in the package is not the one just built`);
      assert.doesNotMatch(built, /sourceMappingURL/, `dist/${name} points to a source map`);
      // Minified code runs on for thousands of characters a line (template texts such as CSS keep their lines).
      const longest = Math.max(...built.split('\n').map((line) => line.length));
      assert.ok(longest > 10_000, `dist/${name} is not minified (its longest line has ${longest} characters)`);
    }
  });
});
