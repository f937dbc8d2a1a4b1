import assert from 'node:assert/strict';
import { linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandResult, CommandRunner } from '../../../src/core/commandPorts';
import { pathArgumentNotCovered } from '../../../src/core/tools/argumentPaths';
import { runCommandTool } from '../../../src/core/tools/runCommandTool';
import { createNodeWorkspace } from '../../../src/node/nodeWorkspace';
import { ScriptedInteraction } from '../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../fakes/toolContext';

// "A path, a link or a hard link leading out is refused": read_file refused a hard link of ~/.aws/credentials, but `cat notes.txt`
// under the rule "cat ..." printed it unasked (an outside attack: an unpacked archive can bring such a link, a git clone cannot).
describe('attack: a rule-allowed command naming a hard link of a file outside the workspace', () => {
  let base: string;
  let root: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'tp-hardlink-'));
    root = join(base, 'ws');
    mkdirSync(join(base, 'home'), { recursive: true });
    mkdirSync(root);
    writeFileSync(join(base, 'home', 'credentials'), '[default]\naws_secret_access_key = s3cr3t\n');
    linkSync(join(base, 'home', 'credentials'), join(root, 'notes.txt'));
    writeFileSync(join(root, 'a.txt'), 'plain\n');
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('asks, saying the argument is a hard link, and runs nothing unasked', async () => {
    assert.equal(
      await pathArgumentNotCovered(createNodeWorkspace(root), '', ['-n', 'notes.txt'], neverAborted),
      '"notes.txt" is a hard link: the same file has other names, and one may be outside the workspace',
    );
    let ran = 0;
    const runner: CommandRunner = {
      describeCwd: async (cwd: string) => join(root, cwd),
      run: async (): Promise<CommandResult> => {
        ran++;
        return { exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 1 };
      },
    };
    const interaction = new ScriptedInteraction({ approvals: [{ approved: false, reason: 'no' }] });
    const ctx = makeToolContext({ workspace: createNodeWorkspace(root), interaction, commandRunner: runner, allowedCommands: { rules: () => [['cat', '...']] } });
    await runCommandTool.run(ctx, { argv: ['cat', 'notes.txt'] }, neverAborted).catch(() => undefined);
    assert.equal(interaction.approvals().length, 1, 'the command asked');
    assert.equal(ran, 0);
  });

  it('holds: a file of one name runs unasked, and a hard link is left to the rule when the user allowed hard links', async () => {
    assert.equal(await pathArgumentNotCovered(createNodeWorkspace(root), '', ['a.txt'], neverAborted), undefined);
    assert.equal(await pathArgumentNotCovered(createNodeWorkspace(root, { allowHardLinks: true }), '', ['notes.txt'], neverAborted), undefined);
  });
});
