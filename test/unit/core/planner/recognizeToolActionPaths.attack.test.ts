import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { recognizeToolAction } from '../../../../src/core/planner/recognizeToolAction';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

// Promises under attack: nothing outside the workspace is touched, whatever a request names; nothing the user did not
// allow happens (a credential file is asked about whatever the policy); the file holds the text the words give.
describe('attack: the heuristic planner\'s file actions from hostile requests', () => {
  let dir: string;
  let root: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-recognize-attack-'));
    root = path.join(dir, 'ws');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(dir, 'escape.txt'), 'outside\n');
    fs.mkdirSync(path.join(root, '.git'));
    fs.writeFileSync(path.join(root, '.git', 'config'), '[core]\n');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const tools = new Map(builtinTools().map((tool) => [tool.name, tool]));

  /** Runs the planned calls as the engine would under a policy that asks for nothing but commands; the outcome of each. */
  async function execute(request: string): Promise<{ planned: boolean; outcomes: string[]; asked: number }> {
    const action = recognizeToolAction(request);
    if (action === undefined) return { planned: false, outcomes: [], asked: 0 };
    const interaction = ScriptedInteraction.approvingAll();
    const ctx = makeToolContext({ workspace: createNodeWorkspace(root), checkpoints: createMemoryCheckpointStore(), interaction, approvalPolicy: 'commandsOnly' });
    const outcomes: string[] = [];
    for (const call of action.calls) {
      const tool = tools.get(call.tool);
      assert.ok(tool, call.tool);
      try {
        await tool.run(ctx, call.args, neverAborted);
        outcomes.push('done');
      } catch (error) {
        outcomes.push(`refused: ${(error as Error).message}`);
      }
    }
    return { planned: true, outcomes, asked: interaction.approvals().length };
  }

  const outsideRequests = [
    'Create a file ../escape.txt with hello',
    'Create a file src/../../escape.txt with hello',
    'Write "pwned" to ../escape.txt',
    'touch ../escape.txt',
    'delete ../escape.txt',
    'mkdir ../made-outside',
    'Create a file ~/.bashrc with hello',
    'Create a file /etc/task-planner-attack with hello',
    'Create a file C:\\Users\\me\\escape.txt with hello',
    'Create a file ..\\escape.txt with hello',
  ];
  for (const request of outsideRequests) {
    it(`attack: ${JSON.stringify(request)} changes nothing outside the workspace, and a planned call is refused saying why`, async () => {
      const { planned, outcomes } = await execute(request);
      assert.equal(fs.readFileSync(path.join(dir, 'escape.txt'), 'utf8'), 'outside\n');
      assert.equal(fs.existsSync(path.join(dir, 'made-outside')), false);
      assert.deepEqual(fs.readdirSync(dir).sort(), ['escape.txt', 'ws']);
      if (planned) for (const outcome of outcomes) assert.match(outcome, /^refused: .*(outside|workspace|\.\.)/i, `${request}: ${outcome}`);
      // A ~ or a Windows path is never taken as a folder or file of the workspace named so (the user meant their home).
      assert.deepEqual(fs.readdirSync(root).filter((name) => name !== '.git'), [], `${request} made ${fs.readdirSync(root).join(', ')} in the workspace`);
    });
  }

  for (const request of ['mkdir .git/hooks', 'mkdir .GIT/hooks', 'Create a file .git/hooks/pre-commit with "rm -rf ~"', 'Write "x" to .git/config', 'Create a file .Git./config with x']) {
    it(`attack: ${JSON.stringify(request)} never changes git's own folder`, async () => {
      const { outcomes } = await execute(request);
      assert.equal(fs.readFileSync(path.join(root, '.git', 'config'), 'utf8'), '[core]\n');
      assert.deepEqual(fs.readdirSync(path.join(root, '.git')), ['config']);
      for (const outcome of outcomes) assert.match(outcome, /^refused: .*\.git/i);
    });
  }

  for (const file of ['.env', 'config/.env.local', '.npmrc', 'id_rsa']) {
    it(`attack: "Create a file ${file} with …" is asked about even under a policy that asks for no file change (a credential file)`, async () => {
      const { planned, asked } = await execute(`Create a file ${file} with "TOKEN=abc"`);
      if (file === '.env') assert.ok(planned, 'the request was planned as a file write');
      if (planned) assert.equal(asked, 1, `${file} was written without asking`);
    });
  }

  it('attack: the quoted text is written as given: runs of spaces and tabs inside quotes are kept', () => {
    const action = recognizeToolAction('Create a file table.txt with "a  b\tc"');
    assert.deepEqual(action?.calls[0]?.args, { path: 'table.txt', content: 'a  b\tc\n' });
  });

  it('attack: two quoted texts are no text to write: the step is not a file write (it wrote `a" and "b`)', () => {
    for (const request of ['Create a file notes.txt with "a" and "b"', "Create a file notes.txt with 'a' or 'b'", 'Create a file notes.txt with the text "a" and "b"']) {
      assert.equal(recognizeToolAction(request), undefined, request);
    }
    assert.deepEqual(recognizeToolAction('Create a file notes.txt with "a and b"')?.calls[0]?.args, { path: 'notes.txt', content: 'a and b\n' });
  });

  it('attack: a line break inside the quoted text is refused, one between words is a space', () => {
    assert.equal(recognizeToolAction('Create a file a.txt with "a\nb"'), undefined);
    assert.deepEqual(recognizeToolAction('Create a file   a.txt\nwith "x  y"')?.calls[0]?.args, { path: 'a.txt', content: 'x  y\n' });
  });

  it("attack: a command's quoted words keep their spaces and tabs, and an apostrophe opens no quote", () => {
    assert.deepEqual(recognizeToolAction('Run `echo "a  b\tc"`')?.calls[0]?.args, { argv: ['echo', 'a  b\tc'] });
    assert.deepEqual(recognizeToolAction("run git commit -m 'two  spaces'")?.calls[0]?.args, { argv: ['git', 'commit', '-m', 'two  spaces'] });
    assert.deepEqual(recognizeToolAction("don't  forget:  read   a.md"), undefined);
    assert.deepEqual(recognizeToolAction("Create a file a.txt with the text it's  'a  b'")?.calls[0]?.args, { path: 'a.txt', content: "it's 'a  b'\n" });
  });

  it('attack: a quoted text keeps a closing full stop inside its quotes, and one outside is punctuation', () => {
    assert.deepEqual(recognizeToolAction('Create a file note.txt with "Done."')?.calls[0]?.args, { path: 'note.txt', content: 'Done.\n' });
    assert.deepEqual(recognizeToolAction('Create a file note.txt with "Done".')?.calls[0]?.args, { path: 'note.txt', content: 'Done\n' });
  });
});
