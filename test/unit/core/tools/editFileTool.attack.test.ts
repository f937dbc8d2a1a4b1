import assert from 'node:assert/strict';
import { applyEditBlocks, editFileTool } from '../../../../src/core/tools/editFileTool';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

/**
 * A text as the diff editor shows it: its lines, split where the editor splits them (CRLF, LF, a lone CR), without their
 * line ends (a document is shown in one line end) and without a leading byte order mark.
 */
function shownLines(text: string): string[] {
  return text.replace(/^\ufeff/, '').split(/\r\n|\r|\n/);
}

/** The line ends of `text`, in order. */
function endsOf(text: string): string[] {
  return text.match(/\r\n|\r|\n/g) ?? [];
}

describe('attack: edit_file writes line ends the diff editor does not show', () => {
  it('attack: in a shell script of mixed line ends, an edit turning `cd build` LF into CRLF shows only its visible change and keeps the LF', async () => {
    // Mostly LF with one CRLF line (a Windows editor touched it): the diff editor shows the script in LF. An edit that also
    // rewrote `cd build\n` as `cd build\r\n` showed one changed line (the echo); bash then ran `cd $'build\r'`, which fails,
    // and `rm -rf *` removed the files of the folder the script was started in.
    const script = '#!/bin/sh\r\ncd build\nrm -rf *\necho done\n';
    const workspace = createMemoryWorkspace({ 'clean.sh': script });
    const interaction = new ScriptedInteraction({ approvals: [{ approved: true }] });
    await editFileTool.run(
      makeToolContext({ workspace, interaction }),
      { path: 'clean.sh', edits: [{ search: 'cd build\n', replace: 'cd build\r\n' }, { search: 'echo done', replace: 'echo finished' }] },
      neverAborted,
    );
    const written = workspace.snapshot()['clean.sh'] ?? '';
    assert.equal(written, '#!/bin/sh\r\ncd build\nrm -rf *\necho finished\n');
    const [request] = interaction.approvals();
    assert.ok(request?.kind === 'file');
    assert.equal(request.proposal.proposedText, written, 'what the diff shows is what is written');
  });

  it('attack: an edit changing only a line end of a mixed file shows no change at all, and writes none', () => {
    for (const [text, search, replace] of [
      ['a\r\nb\r\nc\nd\r\n', 'c\n', 'c\r\n'],
      ['a\nb\nc\r\nd\n', 'c\r\n', 'c\n'],
      // A lone CR beside CRLF ends is a line end to the editor too.
      ['a\r\nb\rc\r\n', 'b\rc', 'b\r\nc'],
      ['a\nb\rc\n', 'b\rc', 'b\nc'],
    ] as const) {
      const edited = applyEditBlocks('f.txt', text, [{ search, replace }]);
      assert.deepEqual(shownLines(edited), shownLines(text), JSON.stringify(text));
      assert.equal(edited, text, `${JSON.stringify(text)}: the editor shows no change, so no byte changes`);
    }
  });

  it('attack: every line of a mixed file an edit leaves as the editor shows it keeps its own line end (a line added ends as the block wrote it)', () => {
    const text = 'one\r\ntwo\nthree\r\nfour\r\n';
    const edited = applyEditBlocks('f.txt', text, [{ search: 'two\nthree\r\n', replace: 'two\r\n2.5\nthree\n' }]);
    assert.deepEqual(shownLines(edited), ['one', 'two', '2.5', 'three', 'four', '']);
    assert.deepEqual(endsOf(edited), ['\r\n', '\n', '\n', '\r\n', '\r\n']);
  });
});
