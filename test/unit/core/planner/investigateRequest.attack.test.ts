import assert from 'node:assert/strict';
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EditorProblem, Problems } from '../../../../src/core/editorPorts';
import type { LlmChatRequest, LlmToolCall } from '../../../../src/core/llm/llmTypes';
import { defaultInvestigationBudget } from '../../../../src/core/planner/investigationBudget';
import { planRequest } from '../../../../src/core/planner/planRequest';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { createGetDiagnosticsTool } from '../../../../src/core/tools/getDiagnosticsTool';
import type { Tool } from '../../../../src/core/tools/tool';
import type { WorkspaceFs } from '../../../../src/core/workspacePorts';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { scriptedLlm } from '../../../fakes/scriptedLlm';

const signal = new AbortController().signal;
const planJson = JSON.stringify({ objective: 'x', steps: [{ id: 'S1', title: 'Fix it', kind: 'agent', input: 'Fix it', dependsOn: [] }] });
let calls = 0;
const call = (name: string, args: Record<string, unknown>): LlmToolCall => ({ id: `c${calls++}`, name, arguments: JSON.stringify(args) });

/** Plans "Fix it" with a model that makes `toolCalls` at once, then writes a plan; every request the model got. */
async function investigate(workspace: WorkspaceFs, toolCalls: LlmToolCall[], tools: Tool[] = builtinTools()): Promise<readonly LlmChatRequest[]> {
  const llm = scriptedLlm([{ toolCalls }, planJson]);
  await planRequest('Fix it', {
    llm,
    tools: createToolRegistry(tools),
    signal,
    clock: new ManualClock(0),
    workspace,
    investigate: { budget: { ...defaultInvestigationBudget, maxToolCalls: 1_000 } },
  });
  return llm.requests;
}

describe('investigateRequest: what a hostile planner can reach', () => {
  let base: string;
  let root: string;
  before(() => {
    base = mkdtempSync(join(tmpdir(), 'investigate-attack-'));
    root = join(base, 'ws');
    for (const folder of ['src', '.git', 'keys']) mkdirSync(join(root, folder), { recursive: true });
    writeFileSync(join(root, '.env'), 'SECRET=hunter2env\n');
    writeFileSync(join(root, '.git', 'config'), 'url = https://hunter2git@example.com\n');
    writeFileSync(join(root, 'keys', 'server.key'), 'hunter2key\n');
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'service.json'), '{"private_key":"-----BEGIN PRIVATE KEY-----\\nhunter2pk\\n-----END PRIVATE KEY-----\\n"}');
    writeFileSync(join(base, 'outside.txt'), 'hunter2out\n');
    symlinkSync('.env', join(root, 'env.txt'));
    symlinkSync('../.git', join(root, 'src', 'g'));
    symlinkSync(join(base, 'outside.txt'), join(root, 'out.txt'));
    linkSync(join(root, '.env'), join(root, 'hard.txt'));
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('reaches no kept file and nothing outside, whatever the spelling of its paths and globs', async () => {
    const paths = [
      '.env', '.ENV', '.env.', '.env ', 'src/../.env', '.env::$DATA', 'env.txt', 'hard.txt', 'src/g/config', '.git\\config', 'src\\..\\.env',
      '..\\outside.txt', join(base, 'outside.txt'), 'C:\\Windows\\win.ini', '\\\\server\\share\\x', '/etc/passwd', '~/.ssh/id_rsa',
      `${homedir()}/.ssh/id_rsa`, 'out.txt', 'KEYS/SERVER.KEY', 'service.json', '%2e%2e/outside.txt', 'GIT~1/config', '.git./config', '.e\u200bnv',
    ];
    const globs = ['.git/**', 'src/g/**', '**/.env*', '{.env,.git/config}', '../**', '/**', '**/*.key', '**', 'hard.txt', 'env.txt', '.GIT/*'];
    const requests = await investigate(createNodeWorkspace(root), [
      ...paths.map((path) => call('read_file', { path })),
      ...globs.map((glob) => call('search_text', { query: 'h.nter2|PRIVATE', regex: true, glob, contextLines: 10 })),
      ...globs.map((glob) => call('list_files', { glob })),
    ]);
    const sent = JSON.stringify(requests.map((request) => request.messages));
    assert.ok(!/hunter2(env|git|key|pk|out)/.test(sent), /.{80}hunter2(env|git|key|pk|out)/.exec(sent)?.[0]);
  });

  // Found while attacking planning (2026): get_diagnostics showed the editor .env on request and returned its problems, whose
  // messages quote the file (a spell checker's "Unknown word (hunter2)", a parser's "Unexpected token 'ghp_…'").
  it('attack: get_diagnostics neither opens a kept file for the editor nor returns a problem of one', async () => {
    const asked: (readonly string[] | undefined)[] = [];
    const problem = (path: string, message: string): EditorProblem => ({ path, severity: 'warning', line: 1, column: 1, endLine: 1, endColumn: 9, message });
    const problems: Problems = {
      list: (paths) => {
        asked.push(paths);
        const all = [
          problem('.env', '"hunter2env": Unknown word.'),
          problem('.git/config', 'Unexpected "hunter2git"'),
          problem('keys/server.key', 'hunter2key'),
          problem('src/a.ts', "'a' is declared but never used."),
        ];
        return Promise.resolve({ problems: paths ? all.filter((found) => paths.includes(found.path)) : all, total: all.length });
      },
    };
    const workspace = createMemoryWorkspace({ '.env': 'SECRET=hunter2env', 'src/a.ts': 'export const a = 1;\n', 'keys/server.key': 'hunter2key' });
    const requests = await investigate(
      workspace,
      [call('get_diagnostics', {}), call('get_diagnostics', { paths: ['.env'] }), call('get_diagnostics', { paths: ['src/a.ts', 'KEYS/server.key'] })],
      [...builtinTools(), createGetDiagnosticsTool(problems)] as Tool[],
    );
    const sent = JSON.stringify(requests.map((request) => request.messages));
    assert.ok(!/hunter2/.test(sent), /.{80}hunter2.{20}/.exec(sent)?.[0]);
    assert.match(sent, /declared but never used/, 'the problems of other files still come');
    assert.deepEqual(asked, [undefined], 'the editor is never asked to open a kept file');
  });
});
