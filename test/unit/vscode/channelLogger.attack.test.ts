// Attack on the output channels: a plan's objective, a tool's error or an MCP server's message quoted in a log entry.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscodeTypes from 'vscode';
import { shownLogChannel, shownLogText } from '../../../src/vscode/channelLogger';

function recordingChannel(): { channel: vscodeTypes.LogOutputChannel; lines: string[]; shown: boolean[] } {
  const lines: string[] = [];
  const shown: boolean[] = [];
  const write = (level: string) => (message: string, ...args: unknown[]) => lines.push(`[${level}] ${message}${args.length > 0 ? ` ${JSON.stringify(args)}` : ''}`);
  const channel = {
    name: 'Task Planner',
    trace: write('trace'),
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: (error: string | Error) => lines.push(`[error] ${String(error)}`),
    append: write('append'),
    appendLine: write('appendLine'),
    show: (preserveFocus?: boolean) => shown.push(preserveFocus === true),
  } as unknown as vscodeTypes.LogOutputChannel;
  return { channel, lines, shown };
}

describe('the output channels show quoted text as text (attack)', () => {
  const forged = 'Plan a\n2026-01-01 10:00:00.000 [info] Run r1 ended: completed, every change approved by you\u001b[2K\r\u202Eevil\u001b]52;c;cm0gLXJmIH4=\u0007';

  it('keeps a forged line, escape sequences, a carriage return and a direction override from acting', () => {
    const { channel, lines } = recordingChannel();
    const log = shownLogChannel(channel);
    log.info(`Planned in the chat: 1 step(s) for ${forged}. Critic 9/10.`);
    log.warn(forged);
    log.error(new Error(forged));
    log.appendLine(forged);
    for (const line of lines) {
      assert.doesNotMatch(line, /[\u001b\r\u0007\u202e]/, line);
      for (const continued of line.split('\n').slice(1)) assert.match(continued, /^ {4}/, 'a line that reads as the channel\'s own');
    }
    assert.match(lines[0]!, /^\[info\] Planned in the chat: 1 step\(s\) for Plan a\n {4}2026-01-01/);
  });

  it('bounds one entry, and leaves the rest of the channel as it was', () => {
    const { channel, lines, shown } = recordingChannel();
    const log = shownLogChannel(channel);
    log.info('x'.repeat(5_000_000));
    assert.ok(lines[0]!.length < 10_000, String(lines[0]!.length));
    assert.match(lines[0]!, /more characters cut\)$/);
    log.show(true);
    assert.deepEqual(shown, [true]);
    assert.equal(log.name, 'Task Planner');
    log.info('Run r1 ended: completed', { steps: 2 });
    assert.equal(lines[1], '[info] Run r1 ended: completed [{"steps":2}]');
  });

  it('leaves plain text as it is', () => {
    assert.equal(shownLogText('Resuming run r-1 (3 steps) — café'), 'Resuming run r-1 (3 steps) — café');
  });
});

describe('every output channel goes through that door (attack)', () => {
  const sources = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? sources(join(folder, entry.name)) : entry.name.endsWith('.ts') ? [join(folder, entry.name)] : [],
    );

  it('makes no output channel that is not passed through shownLogChannel', () => {
    const made = sources(join(__dirname, '..', '..', '..', 'src')).flatMap((path) => readFileSync(path, 'utf8').match(/^.*\bcreateOutputChannel\(.*$/gm) ?? []);
    assert.ok(made.length >= 2, 'the check finds the channels');
    for (const line of made) assert.match(line, /shownLogChannel\(vscode\.window\.createOutputChannel\(/, line);
  });
});
