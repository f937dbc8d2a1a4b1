import assert from 'node:assert/strict';
import '../../fakes/vscodeL10n';
import { McpStartProgress } from '../../../src/vscode/mcpStartProgress';
import { deferred } from '../../support/deferred';

/** A progress door that records each notification: what it reported, and whether it closed. */
function recordingShow() {
  const shown: { messages: string[]; closed: boolean }[] = [];
  const show = (task: (progress: { report(value: { message: string }): void }) => Promise<void>): void => {
    const entry = { messages: [] as string[], closed: false };
    shown.push(entry);
    void task({ report: ({ message }) => entry.messages.push(message) }).then(() => (entry.closed = true));
  };
  return { shown, show };
}

const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('McpStartProgress (one notification while servers connect)', () => {
  it('shows one notification naming every server still connecting, and closes it when the last one ran or failed', async () => {
    const { shown, show } = recordingShow();
    const progress = new McpStartProgress(show);
    const [first, second] = [deferred<void>(), deferred<void>()];
    progress.add('github', first.promise);
    progress.add('files', second.promise);
    assert.equal(shown.length, 1);
    assert.deepEqual(shown[0]?.messages, ['Starting the MCP server "github"…', 'Starting the MCP servers "github", "files"…']);
    first.reject(new Error('could not start'));
    await settled();
    assert.equal(shown[0]?.messages.at(-1), 'Starting the MCP server "files"…');
    assert.equal(shown[0]?.closed, false);
    second.resolve();
    await settled();
    assert.equal(shown[0]?.closed, true);
  });

  it('a server connecting after the notification closed opens a new one', async () => {
    const { shown, show } = recordingShow();
    const progress = new McpStartProgress(show);
    const first = deferred<void>();
    progress.add('github', first.promise);
    first.resolve();
    await settled();
    progress.add('github', new Promise(() => undefined));
    assert.equal(shown.length, 2);
    assert.deepEqual([shown[0]?.closed, shown[1]?.closed], [true, false]);
  });
});
