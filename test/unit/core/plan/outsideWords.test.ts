import assert from 'node:assert/strict';
import { saysOutside } from '../../../../src/core/plan/outsideWords';

describe('saysOutside', () => {
  it('hears the network, HTTP, downloads, web searches, fetching and other services\' APIs', () => {
    for (const text of [
      'Fetch the release notes',
      'Call the GitHub API',
      'GET http://x',
      'Read https://example.com/changelog',
      'Download the dataset',
      'Search the web for the error message',
      'Do a web search for similar projects',
      'Check that the network is up',
      'Make an HTTP request to the service',
      'Query the weather API',
      'Use a third-party service to shorten the links',
      'Run `curl -sSf example.com`',
      'Read the page with fetch_url',
    ]) {
      assert.equal(saysOutside(text), true, text);
    }
  });

  it('does not hear identifiers, paths, the product\'s own commands in code, nor "search", "request" or "API" alone (a newcomer\'s trial)', () => {
    for (const text of [
      'Make `notes search` case-insensitive',
      'Rename searchNotes to findNotes',
      'Search the docs folder for TODO',
      'Open a pull request',
      'Answer the review requests',
      'Document the public API of the notes module',
      'Update src/network.ts and api.md',
      'Rename fetchNotes and download_file',
      'Run `npm test`',
      'Create the file docs/usage.md',
      'Update the web app\'s README',
    ]) {
      assert.equal(saysOutside(text), false, text);
    }
  });

  it('stays linear on a long word without spaces', () => {
    const started = performance.now();
    saysOutside(`${'a'.repeat(200_000)}\`${'b'.repeat(200_000)}`);
    assert.ok(performance.now() - started < 1_000);
  });
});
