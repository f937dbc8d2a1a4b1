import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createNodeWorkspace } from '../../../src/node/nodeWorkspace';
import type { WorkspaceFs } from '../../../src/core/workspacePorts';
import { PathRefusedError } from '../../../src/core/workspace/resolveInRoot';
import { isWorkspaceError } from '../../../src/core/workspace/workspaceError';
import { readTextMany } from '../../../src/core/workspace/readTextMany';
import { namingConfinement, quotableFolderName, toolsNamingConfinement } from '../../../src/vscode/namingConfinement';
import type { Tool, ToolContext } from '../../../src/core/tools/tool';
import { normalizeWorkspacePath } from '../../../src/core/workspace/resolveInRoot';

/** The sentence the editor adds to a refusal (in English). */
const confinedTo = (folder: string): string => `this run is confined to the workspace folder "${quotableFolderName(folder)}"`;

/** Asserts `work` is refused as a path outside the folder, in a message naming the folder `api`. */
async function refusedNamingApi(work: Promise<unknown>): Promise<void> {
  await assert.rejects(work, (error: unknown) => {
    assert.ok(error instanceof PathRefusedError, `expected a refused path, got ${String(error)}`);
    assert.match(error.message, /this run is confined to the workspace folder "api"/);
    assert.match(error.message, /^Refused path "/);
    return true;
  });
}

// Two folders of one multi-root workspace side by side, as a user has them: the run is confined to api/.
describe('namingConfinement: a run confined to one folder of a multi-root workspace', () => {
  let base: string;
  let api: string;
  let web: string;
  let workspace: WorkspaceFs;

  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-multiroot-')));
    api = path.join(base, 'api');
    web = path.join(base, 'web');
    fs.mkdirSync(path.join(api, 'src'), { recursive: true });
    fs.mkdirSync(path.join(web, 'src'), { recursive: true });
    fs.writeFileSync(path.join(api, 'src', 'index.ts'), 'export const api = 1;\n');
    fs.writeFileSync(path.join(web, 'secret.env'), 'TOKEN=web\n');
    fs.writeFileSync(path.join(web, 'src', 'app.ts'), 'export const web = 1;\n');
    workspace = namingConfinement(createNodeWorkspace(api), confinedTo('api'));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('reads, writes, lists and stats inside its own folder as before', async () => {
    assert.equal(await workspace.readText('src/index.ts'), 'export const api = 1;\n');
    await workspace.writeText('src/new.ts', 'x');
    assert.equal(fs.readFileSync(path.join(api, 'src', 'new.ts'), 'utf8'), 'x');
    assert.deepEqual((await workspace.list()).files, ['src/index.ts', 'src/new.ts']);
    assert.equal((await workspace.stat('src'))?.type, 'directory');
    assert.equal(workspace.rootLabel, api);
  });

  it('refuses a relative path climbing into the other folder, for every operation, and changes nothing there', async () => {
    await refusedNamingApi(workspace.readText('../web/secret.env'));
    await refusedNamingApi(workspace.writeText('../web/src/app.ts', 'overwritten'));
    await refusedNamingApi(workspace.delete('../web/secret.env'));
    await refusedNamingApi(workspace.createDirectory('../web/made'));
    await refusedNamingApi(workspace.stat('../web/secret.env'));
    await refusedNamingApi(workspace.readBytes!('../web/secret.env'));
    await refusedNamingApi(workspace.locate!('../web/src'));
    await refusedNamingApi(workspace.readText('src/../../web/secret.env'));
    await refusedNamingApi(workspace.readText('..\\web\\secret.env'));
    assert.equal(fs.readFileSync(path.join(web, 'src', 'app.ts'), 'utf8'), 'export const web = 1;\n');
    assert.ok(fs.existsSync(path.join(web, 'secret.env')));
    assert.ok(!fs.existsSync(path.join(web, 'made')));
  });

  it('refuses an absolute path into the other folder', async () => {
    await refusedNamingApi(workspace.readText(path.join(web, 'secret.env')));
    await refusedNamingApi(workspace.writeText(path.join(web, 'src', 'app.ts'), 'overwritten'));
    assert.equal(fs.readFileSync(path.join(web, 'src', 'app.ts'), 'utf8'), 'export const web = 1;\n');
  });

  it('refuses symbolic links into the other folder (a file link, and a directory link on the way)', async () => {
    fs.symlinkSync(path.join(web, 'secret.env'), path.join(api, 'env-link'));
    fs.symlinkSync(web, path.join(api, 'web-dir'));
    await refusedNamingApi(workspace.readText('env-link'));
    await refusedNamingApi(workspace.writeText('env-link', 'overwritten'));
    await refusedNamingApi(workspace.readText('web-dir/secret.env'));
    await refusedNamingApi(workspace.writeText('web-dir/src/app.ts', 'overwritten'));
    assert.equal(fs.readFileSync(path.join(web, 'secret.env'), 'utf8'), 'TOKEN=web\n');
    assert.equal(fs.readFileSync(path.join(web, 'src', 'app.ts'), 'utf8'), 'export const web = 1;\n');
  });

  it('hands a search the refusal naming the folder, file by file', async () => {
    fs.symlinkSync(path.join(web, 'secret.env'), path.join(api, 'env-link'));
    const seen: { path: string; error: unknown }[] = [];
    await readTextMany(workspace, ['src/index.ts', 'env-link'], (file, _text, error) => void seen.push({ path: file, error }));
    assert.equal(seen[0]?.error, undefined);
    assert.ok(seen[1]?.error instanceof PathRefusedError);
    assert.match((seen[1].error as Error).message, /confined to the workspace folder "api"/);
  });

  it('leaves other errors as they are', async () => {
    await assert.rejects(workspace.readText('src/missing.ts'), (error: unknown) => {
      assert.ok(isWorkspaceError(error, 'not_found'));
      assert.doesNotMatch((error as Error).message, /confined/);
      return true;
    });
  });

  it('keeps what a refusal says to do: a protected place is not told to use a relative path', async () => {
    await assert.rejects(workspace.writeText('.task-planner/note.txt', 'x'), (error: unknown) => {
      assert.ok(error instanceof PathRefusedError);
      assert.match(error.message, /it is inside \.task-planner, .*; this run is confined to the workspace folder "api"\.$/);
      assert.doesNotMatch(error.message, /Use a path relative/);
      return true;
    });
  });

  it('keeps a hostile folder name to one bounded, quoted line in the message', async () => {
    const hostile = namingConfinement(createNodeWorkspace(api), confinedTo(`evil"\n\u001b[31mname${'x'.repeat(500)}`));
    await assert.rejects(hostile.readText('../web/secret.env'), (error: unknown) => {
      const message = (error as Error).message;
      assert.doesNotMatch(message, /[\n\u001b]/);
      assert.ok(message.length < 600, `message of ${message.length} characters`);
      assert.match(message, /folder "evil\?\?\?\[31mname/);
      return true;
    });
  });
});

describe('toolsNamingConfinement: refusals a tool makes itself', () => {
  const tool = (run: Tool['run']): Tool => ({ name: 'write_file', description: 'writes', inputSchema: undefined as never, effects: 'write', run });
  const ctx = {} as ToolContext;
  const signal = new AbortController().signal;

  it("names the folder in a tool's own refusal of a path, once, even when the workspace named it already", async () => {
    const [checking] = toolsNamingConfinement([tool(async (_ctx, input) => normalizeWorkspacePath(String(input)))], confinedTo('web'));
    await assert.rejects(checking!.run(ctx, '../api/stolen.txt', signal), (error: unknown) => {
      assert.ok(error instanceof PathRefusedError);
      assert.match(error.message, /^Refused path "\.\.\/api\/stolen\.txt": .*; this run is confined to the workspace folder "web"\. Use a path/);
      return true;
    });
    const already = new PathRefusedError('../x', `it climbs out; ${confinedTo('web')}`);
    const [again] = toolsNamingConfinement([tool(() => Promise.reject(already))], confinedTo('web'));
    await assert.rejects(again!.run(ctx, {}, signal), (error: unknown) => {
      assert.equal((error as Error).message.split('confined to').length, 2);
      return true;
    });
  });

  it("keeps the tool's results, other errors and description", async () => {
    const [passing, failing] = toolsNamingConfinement(
      [tool(async (_ctx, input) => `wrote ${String(input)}`), tool(() => Promise.reject(new Error('disk full')))],
      confinedTo('web'),
    );
    assert.equal(await passing!.run(ctx, 'a.txt', signal), 'wrote a.txt');
    assert.equal(passing!.name, 'write_file');
    assert.equal(passing!.effects, 'write');
    await assert.rejects(failing!.run(ctx, {}, signal), /^Error: disk full$/);
  });
});
