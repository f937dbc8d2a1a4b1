import assert from 'node:assert/strict';
import { readFileTool } from '../../../../src/core/tools/readFileTool';
import { searchTextTool } from '../../../../src/core/tools/searchTextTool';
import { editFileTool } from '../../../../src/core/tools/editFileTool';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { ApprovalRejectedError } from '../../../../src/core/tools/approvals';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { leadingToWithheld, withheldLabel, withheldReason } from '../../../../src/core/tools/withheldFiles';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

/**
 * A tool context over `files`, where each path of `links` leads to its value (as a symbolic link would); `kept` gets
 * every file the tools say they kept from the model.
 */
function contextWith(files: Record<string, string>, links: Record<string, string> = {}, kept: string[] = []) {
  const workspace = createMemoryWorkspace(files);
  return makeToolContext({ workspace: { ...workspace, locate: (path: string) => Promise.resolve(links[path] ?? path) }, withheld: (path) => kept.push(path) });
}

describe('withheldReason', () => {
  it('names credentials files and what lies in .git or .task-planner, at any depth and in any case', () => {
    assert.match(withheldReason('.env') ?? '', /^a file of this name holds credentials \(keys, passwords, tokens\), and tools do not read it/);
    assert.match(withheldReason('deploy/id_rsa') ?? '', /holds credentials/);
    assert.match(withheldReason('.git/config') ?? '', /^it is inside .git, which tools do not read/);
    assert.match(withheldReason('sub/.GIT/config') ?? '', /^it is inside .GIT,/);
    assert.match(withheldReason('.task-planner/runs/r.jsonl') ?? '', /^it is inside .task-planner,/);
    for (const path of ['README.md', '.env.example', 'src/git/config.ts', 'keys.ts']) assert.equal(withheldReason(path), undefined, path);
  });

  it('has a few words for the run\'s summary of each file it names, and none for a file tools read', () => {
    assert.deepEqual(
      ['.env', 'deploy/id_rsa', '.git/config', 'sub/.GIT/config', '.task-planner/runs/r.jsonl', 'README.md'].map(withheldLabel),
      ['a credentials file', 'a credentials file', 'inside .git', 'inside .GIT', 'inside .task-planner', undefined],
    );
  });
});

describe('read_file and search_text keep credentials from the model', () => {
  const files = { '.env': 'DB_PASSWORD=hunter2\n', 'README.md': 'DB_PASSWORD is set in .env\n', 'notes.txt': 'DB_PASSWORD=hunter2\n', 'ok.txt': 'plain\n' };
  const links = { 'notes.txt': '.env', 'ok.txt': 'docs/ok.txt' };

  it('read_file refuses .env as written and through a link, naming where the link leads; reads other files', async () => {
    const kept: string[] = [];
    const ctx = contextWith(files, links, kept);
    await assert.rejects(readFileTool.run(ctx, { path: '.env' }, neverAborted), /^PathRefusedError: Refused path ".env": a file of this name holds credentials.* No setting changes this: give the values the step needs in its input or the request \(a copy without secrets, such as \.env\.example, can be read\)\.$/);
    // A place, not a name: no copy of .git/config is suggested (the newcomer read the .env advice under it).
    await assert.rejects(readFileTool.run(ctx, { path: '.git/config' }, neverAborted), /^PathRefusedError: Refused path ".git\/config": it is inside .git.* in its input or the request\.$/);
    await assert.rejects(readFileTool.run(ctx, { path: 'notes.txt' }, neverAborted), /Refused path "notes.txt": it leads to .env: a file of this name holds credentials/);
    assert.equal((await readFileTool.run(ctx, { path: 'ok.txt' }, neverAborted)).content, 'plain\n');
    assert.deepEqual(kept, ['.env', '.git/config', '.env'], 'each refusal is told, by the file kept (where the link led)');
  });

  it('search_text leaves out .env and a file leading to it, still searches the rest, and tells what it kept', async () => {
    const kept: string[] = [];
    const found = await searchTextTool.run(contextWith({ ...files, 'deploy/id_rsa': 'KEY DB_PASSWORD' }, links, kept), { query: 'DB_PASSWORD' }, neverAborted);
    assert.deepEqual(found.matches.map((match) => match.path), ['README.md']);
    assert.equal(found.filesSkipped, 0, 'the link is counted as searched, matched or not');
    assert.deepEqual(kept, ['.env', 'deploy/id_rsa', '.env']);
    // The second attacker's find (2026-12-01): the counts changed when a guess of the secret matched in the link.
    const guess = async (query: string) => {
      const result = await searchTextTool.run(contextWith(files, links), { query }, neverAborted);
      return [result.filesSearched, result.filesSkipped, result.matches.length];
    };
    assert.deepEqual(await guess('DB_PASSWORD=hunter'), await guess('DB_PASSWORD=wrong-guess'));
    const none: string[] = [];
    await searchTextTool.run(contextWith(files, links, none), { query: 'DB_PASSWORD', glob: '*.md' }, neverAborted);
    assert.deepEqual(none, [], 'a file the glob leaves out was not kept from anything');
  });

  // An outside attacker's find (2026-12-01): a service account's key file, named as any JSON file, reached the model.
  it('read_file and search_text keep from the model a file that holds a private key, whatever its name', async () => {
    const key = '{"type": "service_account", "client_email": "a@b.iam", "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQ\\n-----END PRIVATE KEY-----\\n"}';
    const held = { 'service-account.json': key, 'deploy/ssh': '-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl\n', 'putty.txt': 'PuTTY-User-Key-File-3: ssh-ed25519\n' };
    const kept: string[] = [];
    const ctx = contextWith({ ...held, 'README.md': 'client_email b3Bl ssh-ed25519' }, {}, kept);
    for (const path of Object.keys(held)) {
      await assert.rejects(readFileTool.run(ctx, { path }, neverAborted), { message: new RegExp(`it holds a private key, and tools do not read it`) }, path);
    }
    const found = await searchTextTool.run(ctx, { query: 'client_email|b3Bl|ssh-ed25519', regex: true }, neverAborted);
    assert.deepEqual(found.matches.map((match) => match.path), ['README.md']);
    assert.deepEqual(kept.sort(), [...Object.keys(held), ...Object.keys(held)].sort());
  });

  // The second attacker's finds (2026-12-01): edit_file's search blocks and write_file's "unchanged" told a model the
  // key a guess at a time, without a question.
  it('edit_file does not edit a file kept from the model, and write_file asks before writing one, even what it holds', async () => {
    const held = { ...files, 'keys/sa.txt': '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n' };
    for (const path of ['.env', 'notes.txt', 'keys/sa.txt']) {
      await assert.rejects(
        editFileTool.run(contextWith(held, links), { path, edits: [{ search: 'DB_PASSWORD=hu', replace: 'x' }] }, neverAborted),
        { name: 'PathRefusedError', message: /holds credentials|holds a private key/ },
        path,
      );
    }
    const interaction = new ScriptedInteraction({ approvals: [{ approved: false }, { approved: false }] });
    const ctx = makeToolContext({ workspace: createMemoryWorkspace(held), interaction });
    await assert.rejects(writeFileTool.run(ctx, { path: '.env', content: held['.env'] ?? '' }, neverAborted), ApprovalRejectedError);
    await assert.rejects(writeFileTool.run(ctx, { path: 'keys/sa.txt', content: held['keys/sa.txt'] }, neverAborted), ApprovalRejectedError);
    assert.equal(interaction.approvals().length, 2, 'each asked, the same content too');
  });

  // An outside attack (2026-12-02): a plan proposing to write .env put what .env held into the question's diff, and so onto
  // stdout, into the journal and into a CI job's summary.
  it('attack: the question about changing a credentials file shows what is proposed, never what the file holds, and is bound to its version', async () => {
    const secret = '-----BEGIN PRIVATE KEY-----\nMIIEsecret\n-----END PRIVATE KEY-----\n';
    const held = { ...files, 'keys/sa.txt': secret };
    const interaction = new ScriptedInteraction({ approvals: [{ approved: true }, { approved: true }, { approved: true }] });
    const workspace = createMemoryWorkspace(held);
    const ctx = makeToolContext({ workspace, interaction });
    await writeFileTool.run(ctx, { path: '.env', content: 'X=1\n' }, neverAborted);
    await writeFileTool.run(ctx, { path: 'keys/sa.txt', content: 'rotated\n' }, neverAborted);
    const asked = interaction.approvals();
    assert.equal(asked.length, 2);
    const shown = JSON.stringify(asked);
    assert.doesNotMatch(shown, /hunter2|MIIEsecret/, 'a secret was in the question');
    assert.match(shown, /X=1/);
    assert.match(shown, /-\(not shown: a credentials file; 1 line, version [0-9a-f]{12}\)\\n\+X=1/);
    assert.match(shown, /-\(not shown: a credentials file; 3 lines, version [0-9a-f]{12}\)\\n\+rotated/);
    assert.deepEqual([workspace.snapshot()['.env'], workspace.snapshot()['keys/sa.txt']], ['X=1\n', 'rotated\n']);
  });

  it('leadingToWithheld names only the paths whose link leads to a withheld file, each once, with where it leads', async () => {
    assert.deepEqual([...(await leadingToWithheld(contextWith(files, links), ['notes.txt', 'ok.txt', 'notes.txt', 'README.md'], neverAborted))], [['notes.txt', '.env']]);
  });
});
