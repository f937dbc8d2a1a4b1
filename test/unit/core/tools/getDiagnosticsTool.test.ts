import assert from 'node:assert/strict';
import type { EditorProblem, Problems } from '../../../../src/core/editorPorts';
import { createGetDiagnosticsTool } from '../../../../src/core/tools/getDiagnosticsTool';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

const typeError: EditorProblem = {
  path: 'src/a.ts',
  severity: 'error',
  line: 3,
  column: 7,
  endLine: 3,
  endColumn: 12,
  message: "Type 'string' is not assignable to type 'number'.",
  source: 'ts',
  code: '2322',
};

function fakeProblems(found: EditorProblem[]): Problems & { calls: { paths: readonly string[] | undefined; limit: number }[] } {
  const calls: { paths: readonly string[] | undefined; limit: number }[] = [];
  return {
    calls,
    list(paths, limit) {
      calls.push({ paths, limit });
      return Promise.resolve({ problems: found.slice(0, limit), total: found.length });
    },
  };
}

describe('get_diagnostics', () => {
  it('reads the problems of the given files, confined to the workspace, 100 at most by default', async () => {
    const problems = fakeProblems([typeError]);
    const tool = createGetDiagnosticsTool(problems);
    assert.equal(tool.effects, 'read');
    assert.deepEqual(await tool.run(makeToolContext(), { paths: ['./src/a.ts'] }, neverAborted), { problems: [typeError], total: 1 });
    assert.deepEqual(problems.calls, [{ paths: ['src/a.ts'], limit: 100 }]);
  });

  it('reads the whole workspace without paths, and refuses a path outside it before asking the editor', async () => {
    const problems = fakeProblems([]);
    const tool = createGetDiagnosticsTool(problems);
    await tool.run(makeToolContext(), { maxResults: 5 }, neverAborted);
    assert.deepEqual(problems.calls, [{ paths: undefined, limit: 5 }]);
    await assert.rejects(tool.run(makeToolContext(), { paths: ['../secret.ts'] }, neverAborted));
    assert.equal(problems.calls.length, 1);
    assert.equal(tool.inputSchema.safeParse({ maxResults: 501 }).success, false);
    assert.equal(tool.inputSchema.safeParse({ paths: [] }).success, false);
  });

  it('bounds each message and escapes controls in messages, sources and codes', async () => {
    const hostile: EditorProblem = { ...typeError, message: `\u001b[2J${'m'.repeat(5000)}`, source: 'li\nnt\u0007', code: 'c\u009b' };
    const [problem] = (await createGetDiagnosticsTool(fakeProblems([hostile])).run(makeToolContext(), {}, neverAborted)).problems;
    assert.ok(problem?.message.startsWith('\\u001b[2Jmmm'));
    assert.ok((problem?.message.length ?? 0) <= 1000);
    assert.equal(problem?.source, 'li nt\\u0007');
    assert.equal(problem?.code, 'c\\u009b');
  });

  it('keeps a problem without a source or code without them, and says what it reads in its progress line', async () => {
    const { source: _source, code: _code, ...bare } = typeError;
    const progress: string[] = [];
    const ctx = makeToolContext({ progress: (message: string) => progress.push(message) });
    const tool = createGetDiagnosticsTool(fakeProblems([bare]));
    const [problem] = (await tool.run(ctx, { paths: ['src/a.ts'] }, neverAborted)).problems;
    assert.deepEqual(problem, bare);
    assert.equal('source' in (problem ?? {}), false);
    assert.equal('code' in (problem ?? {}), false);
    await tool.run(ctx, { paths: ['src/a.ts', 'src/b.ts'] }, neverAborted);
    await tool.run(ctx, {}, neverAborted);
    assert.deepEqual(progress, ['reading the problems of 1 file', 'reading the problems of 2 files', "reading the workspace's problems"]);
    assert.equal(tool.name, 'get_diagnostics');
    assert.match(tool.description, /^The problems the editor shows .* at most 500\./);
  });
});
