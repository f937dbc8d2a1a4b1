// Attack on "what the user is asked to approve is shown unmistakably": a file a model's step created under a name that
// looks like another (tag characters, a C1 control, a line separator: a workspace path could hold them), changed after
// the run, then Undo anyway asks about it.
import assert from 'node:assert/strict';
import type { UndoOverwrite } from '../../../src/core/tools/undoRun';
import type * as UndoAnywayModule from '../../../src/vscode/undoAnyway';
import { requireWithVscode } from '../../fakes/requireWithVscode';

/** The diff tab's title and the question Undo anyway shows for a file named `name`, in that order. */
async function askedAbout(name: string): Promise<string[]> {
  const shown: string[] = [];
  let handler: ((target: unknown, overwrites: readonly UndoOverwrite[]) => Promise<unknown>) | undefined;
  const { registerUndoAnyway } = requireWithVscode<typeof UndoAnywayModule>(require.resolve('../../../src/vscode/undoAnyway'), {
    commands: {
      registerCommand: (_id: string, callback: typeof handler) => ((handler = callback), { dispose: () => undefined }),
      executeCommand: (_command: string, _left: unknown, _right: unknown, title: string) => (shown.push(title), Promise.resolve(undefined)),
    },
    window: {
      showWarningMessage: (message: string) => (shown.push(message), Promise.resolve(undefined)),
      showInformationMessage: () => Promise.resolve(undefined),
      tabGroups: { all: [] },
    },
    TabInputTextDiff: class {},
  });
  const documents = { put: () => ({ toString: () => 'snapshot' }) } as never;
  registerUndoAnyway({ runs: { undo: () => Promise.reject(new Error('not asked')) }, documents, log: {} as never });
  const version = (text: string) => ({ exists: true as const, text, sha256: '0'.repeat(64) });
  await handler!({ runId: 'r' }, [{ path: name, current: version('mine'), restore: version('the run') }]);
  return shown;
}

describe('attack: Undo anyway names the file it asks about unmistakably', () => {
  const tags = [...'x'].map((char) => String.fromCodePoint(0xe0000 + char.charCodeAt(0))).join('');
  const names = [`config.ts${tags}`, 'config.ts\u0085', 'config.ts\u2028(approved)'];

  for (const name of names) {
    it(`shows ${JSON.stringify(name.slice(0, 40))} with what hides in it spelled out`, async () => {
      const shown = await askedAbout(name);
      assert.equal(shown.length, 2, 'the diff and the question');
      for (const text of shown) {
        assert.doesNotMatch(text, /[\u0080-\u009f\u2028\u2029\u{e0000}-\u{e007f}]/u, JSON.stringify(text));
        assert.ok(text.length < 1_000, `${text.length} characters`);
      }
    });
  }

  it('held: a plain name is shown as it is', async () => {
    assert.deepEqual(await askedAbout('src/config.ts'), [
      'src/config.ts: now ↔ after Undo anyway',
      'src/config.ts was changed after the run. Undo anyway: put it back as it was before the run (right), losing what is on the left?',
    ]);
  });
});
