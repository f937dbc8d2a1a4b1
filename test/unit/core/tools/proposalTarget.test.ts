import assert from 'node:assert/strict';
import { proposalTarget } from '../../../../src/core/tools/proposalTarget';

describe('proposalTarget', () => {
  const proposal = { path: 'docs/a.md', currentText: 'a', proposedText: 'b', diff: '' };

  it('names the file by its workspace path', () => {
    assert.equal(proposalTarget(proposal), 'docs/a.md');
  });

  it('says where the path really leads when a symbolic link is on the way', () => {
    assert.equal(proposalTarget({ ...proposal, resolvedPath: 'notes/real.md' }), 'docs/a.md (through a symbolic link: notes/real.md)');
  });
});
