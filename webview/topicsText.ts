// What the review says of the plan's topics: pure, so it is tested outside a browser.

/** "Tags of this workspace's skills: docs, release." or that there are none; nothing before the skills were read. */
export function topicsNote(skillTags: readonly string[] | undefined): string {
  if (skillTags === undefined) return '';
  if (skillTags.length === 0) return 'No skill of this workspace has tags: a topic adds no skill until one does.';
  return `Tags of this workspace's skills: ${skillTags.join(', ')}.`;
}

/**
 * Whether the review shows the plan's topics: not while the plan has none and the workspace has no skill with a tag, when a
 * topic could pick no skill ("Topics: none" on every plan of a workspace without skills read as unexplained: a trial).
 */
export function showsTopics(topics: readonly string[], skillTags: readonly string[] | undefined): boolean {
  return topics.length > 0 || skillTags === undefined || skillTags.length > 0;
}
