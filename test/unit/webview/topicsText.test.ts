import assert from 'node:assert/strict';
import { showsTopics, topicsNote } from '../../../webview/topicsText';

describe('topicsText: what the review says of the plan\'s topics', () => {
  it('shows no topics row for a plan without topics in a workspace with no tagged skill ("Topics: none" on every plan: a trial)', () => {
    assert.equal(showsTopics([], []), false);
    assert.equal(showsTopics([], ['docs']), true, 'a topic could pick a skill');
    assert.equal(showsTopics(['docs'], []), true, 'the plan has some: they are shown, and can be cleared');
    assert.equal(showsTopics([], undefined), true, 'before the skills were read');
  });

  it('names the skills\' tags under the field, or says that none has one', () => {
    assert.equal(topicsNote(['docs', 'release']), "Tags of this workspace's skills: docs, release.");
    assert.equal(topicsNote([]), 'No skill of this workspace has tags: a topic adds no skill until one does.');
    assert.equal(topicsNote(undefined), '');
  });
});
