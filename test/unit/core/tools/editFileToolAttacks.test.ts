import assert from 'node:assert/strict';
import { applyEditBlocks, editFileTool } from '../../../../src/core/tools/editFileTool';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

// A diff editor shows neither a line end nor a leading byte order mark (VS Code drops the mark and shows a document in one
// line end), so an edit that changes them changes bytes its approval never showed: the whole-file write keeps them
// (keepLineEnds); these attacks make the same changes through edit_file.
describe('edit_file attacks', () => {
  it('attack: a replacement with CRLF line ends in a file whose every line ends in LF writes LF, as a whole-file write does', async () => {
    const workspace = createMemoryWorkspace({ 'run.sh': '#!/bin/sh\necho one\necho two\n' });
    const interaction = ScriptedInteraction.approvingAll();
    await editFileTool.run(makeToolContext({ workspace, interaction }), { path: 'run.sh', edits: [{ search: 'echo one', replace: 'echo uno\r\necho una' }] }, neverAborted);
    assert.equal(workspace.snapshot()['run.sh'], '#!/bin/sh\necho uno\necho una\necho two\n');
    const [request] = interaction.approvals();
    assert.ok(request?.kind === 'file');
    assert.equal(request.proposal.proposedText, workspace.snapshot()['run.sh'], 'what was written is what was shown');
  });

  it('attack: a block ending in CRLF in an LF file leaves no CR before the next line', () => {
    assert.equal(applyEditBlocks('f.txt', 'a\nb\nc\n', [{ search: 'b\n', replace: 'B\r\nB2\r\n' }]), 'a\nB\nB2\nc\n');
  });

  it('attack: an edit removing the byte order mark of a file keeps it (the diff showed no change)', async () => {
    const workspace = createMemoryWorkspace({ 'data.csv': '\ufeffname,value\nx,1\n' });
    await editFileTool.run(makeToolContext({ workspace }), { path: 'data.csv', edits: [{ search: '\ufeffname', replace: 'name' }] }, neverAborted);
    assert.equal(workspace.snapshot()['data.csv'], '\ufeffname,value\nx,1\n');
    assert.equal(applyEditBlocks('f.txt', '\ufeffa\nb\n', [{ search: '\ufeffa\n', replace: '' }]), '\ufeffb\n');
  });

  it('attack: an edit adding a byte order mark (or a second one) at the start of a file adds none', () => {
    assert.equal(applyEditBlocks('f.txt', 'a\nb\n', [{ search: 'a\n', replace: '\ufeffa\n' }]), 'a\nb\n');
    assert.equal(applyEditBlocks('f.txt', '\ufeffa\nb\n', [{ search: 'a', replace: '\ufeff\ufeffA' }]), '\ufeffA\nb\n');
    // Past the start a U+FEFF is a character the editor marks, not a byte order mark: kept as the model wrote it.
    assert.equal(applyEditBlocks('f.txt', 'a\nb\n', [{ search: 'b', replace: 'b\ufeff' }]), 'a\nb\ufeff\n');
  });

  it('attack: an edit of a file of one line, or of mixed line ends, keeps the replacement as written (no convention to keep)', () => {
    assert.equal(applyEditBlocks('f.txt', 'one line', [{ search: 'one', replace: 'x\r\ny' }]), 'x\r\ny line');
    assert.equal(applyEditBlocks('f.txt', 'a\r\nb\n', [{ search: 'b', replace: 'x\r\ny' }]), 'a\r\nx\r\ny\n');
  });

  it('attack: an edit of a file of old Mac line ends (CR alone) matches and writes its line breaks as CR, as the editor shows them', () => {
    assert.equal(applyEditBlocks('f.txt', 'a\rb\rc\r', [{ search: 'a\nb', replace: 'A\nB\r\nB2' }]), 'A\rB\rB2\rc\r');
  });

  it('attack: an edit whose blocks replace text with the same text changes nothing and asks nothing', async () => {
    const workspace = createMemoryWorkspace({ 'f.txt': 'same\n' });
    const interaction = new ScriptedInteraction();
    const result = await editFileTool.run(makeToolContext({ workspace, interaction }), { path: 'f.txt', edits: [{ search: 'same', replace: 'same' }] }, neverAborted);
    assert.deepEqual(result, { path: 'f.txt', operation: 'unchanged', changed: false, bytes: 0 });
    assert.equal(interaction.requests.length, 0);
  });

  it('attack: blocks that touch end to start both apply; a block inside another is refused, whatever their order', () => {
    assert.equal(applyEditBlocks('f.txt', 'abcd', [{ search: 'cd', replace: 'CD' }, { search: 'ab', replace: 'AB' }]), 'ABCD');
    assert.throws(() => applyEditBlocks('f.txt', 'abcd', [{ search: 'c', replace: 'X' }, { search: 'bcd', replace: 'Y' }]), /blocks 1 and 2 overlap/);
    assert.throws(() => applyEditBlocks('f.txt', 'abcd', [{ search: 'abcd', replace: 'X' }, { search: 'b', replace: 'Y' }]), /blocks 1 and 2 overlap/);
  });

  it('attack: an empty file and a file without a trailing line break are edited without adding one', async () => {
    const workspace = createMemoryWorkspace({ 'empty.txt': '', 'open.txt': 'a\nb' });
    const ctx = makeToolContext({ workspace });
    await assert.rejects(editFileTool.run(ctx, { path: 'empty.txt', edits: [{ search: '\n', replace: 'x' }] }, neverAborted), /block 1: its search text was not found/);
    await editFileTool.run(ctx, { path: 'open.txt', edits: [{ search: 'b', replace: 'B' }] }, neverAborted);
    assert.deepEqual(workspace.snapshot(), { 'empty.txt': '', 'open.txt': 'a\nB' });
  });

  it('attack: a CR at the edge of a search or a replacement changes no line end the diff does not show (2026-12-06)', () => {
    // Before: `beta\r` → `BETA` left a lone LF in a CRLF file, and `beta` → `BETA\r` made an LF file's line end CRLF.
    assert.equal(applyEditBlocks('crlf.txt', 'alpha\r\nbeta\r\ngamma\r\n', [{ search: 'beta\r', replace: 'BETA' }]), 'alpha\r\nBETA\r\ngamma\r\n');
    assert.equal(applyEditBlocks('lf.txt', 'alpha\nbeta\ngamma\n', [{ search: 'beta', replace: 'BETA\r' }]), 'alpha\nBETA\ngamma\n');
    assert.equal(applyEditBlocks('cr.txt', 'alpha\rbeta\rgamma\r', [{ search: 'beta', replace: 'BETA\n' }]), 'alpha\rBETA\r\rgamma\r');
    // A lone CR the file already holds beside its line ends stays where it was (the editor shows it as a line break of its own).
    assert.equal(applyEditBlocks('stray.txt', 'a\nb\rc\nd\n', [{ search: 'd', replace: 'D' }]), 'a\nb\rc\nD\n');
  });
});
