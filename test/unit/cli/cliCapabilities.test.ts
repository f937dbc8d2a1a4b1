import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cliCapabilities } from '../../../src/cli/cliCapabilities';
import type { CliIo } from '../../../src/cli/cliIo';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const skill = (name: string): string => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nBODY of ${name}\n`;

// Skills and instructions are workspace configuration too: a hostile repository's devices, pipes, links out and huge files.
describe('cliCapabilities: skills and instructions are read through the confinement, regular files only, bounded', function () {
  if (process.platform !== 'linux') return;
  this.timeout(20_000);
  const workspace = temporaryDirectory('cli-capabilities-');
  const outside = temporaryDirectory('cli-capabilities-outside-');
  const write = (path: string, text: string): string => {
    const file = join(workspace.path, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  };

  it('leaves out a SKILL.md linked to /dev/zero or out of the workspace, an AGENTS.md that is a pipe and a huge instructions file, and reads the rest', async () => {
    write('.github/skills/good/SKILL.md', skill('good'));
    mkdirSync(join(workspace.path, '.github/skills/zero'), { recursive: true });
    symlinkSync('/dev/zero', join(workspace.path, '.github/skills/zero/SKILL.md'));
    writeFileSync(join(outside.path, 'SKILL.md'), skill('stolen'));
    mkdirSync(join(workspace.path, '.github/skills/stolen'), { recursive: true });
    symlinkSync(join(outside.path, 'SKILL.md'), join(workspace.path, '.github/skills/stolen/SKILL.md'));
    mkdirSync(join(workspace.path, 'pkg'));
    spawnSync('mkfifo', [join(workspace.path, 'pkg/AGENTS.md')]);
    const huge = write('.github/instructions/huge.instructions.md', '');
    truncateSync(huge, 2 ** 31);
    write('AGENTS.md', 'ROOT-AGENTS\n');
    const errors: string[] = [];
    const io: CliIo = { out: () => undefined, err: (text) => errors.push(text), interactive: false, ask: () => Promise.resolve('') };
    const catalogue = await cliCapabilities({ workspace: workspace.path }, io);
    assert.deepEqual(catalogue.skills.map((found) => found.name), ['good']);
    assert.deepEqual(catalogue.instructions.map((found) => found.path), ['AGENTS.md']);
    assert.ok(
      errors.some((line) => /huge\.instructions\.md: It is larger than 256 KiB/.test(line)),
      errors.join('\n'),
    );
    assert.ok(!JSON.stringify(catalogue).includes('stolen'), 'nothing of the outside skill is read');
  });
});
