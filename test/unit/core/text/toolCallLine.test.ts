import assert from 'node:assert/strict';
import { toolCallLine } from '../../../../src/core/text/toolCallLine';

describe('toolCallLine: a tool call as a person reads it in a step\'s output', () => {
  it('names each argument, strings quoted and others as JSON', () => {
    assert.equal(toolCallLine('read_file', '{"path":"src/a.js"}'), 'read_file path: "src/a.js"');
    assert.equal(toolCallLine('search', '{"query":"x","maxResults":5,"glob":null}'), 'search query: "x", maxResults: 5, glob: null');
    assert.equal(toolCallLine('list_files', '{}'), 'list_files');
  });

  it('cuts a file\'s content to a quoted start with its lines and characters, so the line does not run sideways', () => {
    const content = Array.from({ length: 40 }, (_, index) => `line ${index} of the notes file, with some words`).join('\n');
    const line = toolCallLine('write_file', JSON.stringify({ path: 'notes.md', content }));
    assert.match(line, /^write_file path: "notes\.md", content: "line 0 of the notes file, with some words line 1 of the not…" \(40 lines, \d+ characters\)$/);
    assert.ok(!line.includes('\n'));
    assert.equal(toolCallLine('write_file', JSON.stringify({ path: 'a', content: 'two\nlines' })), 'write_file path: "a", content: "two lines" (2 lines, 9 characters)');
  });

  it('keeps the whole line within 240 characters, however many arguments', () => {
    const args = Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`argument${index}`, 'a value of some length']));
    const line = toolCallLine('many', JSON.stringify(args));
    assert.equal(line.length, 240);
    assert.ok(line.endsWith('…'));
  });

  it('shows arguments that are not a JSON object as they are, on one line and cut', () => {
    assert.equal(toolCallLine('odd', '[1,2]'), 'odd [1,2]');
    assert.equal(toolCallLine('broken', '{"path": "a'), 'broken {"path": "a');
    assert.equal(toolCallLine('raw', 'not\njson'), 'raw not json');
    assert.equal(toolCallLine('long', 'x'.repeat(1_000)).length, 240);
  });

  it('escapes quotes and control characters inside a value instead of printing them', () => {
    assert.equal(toolCallLine('run', JSON.stringify({ command: 'echo "hi"\u001b[2J' })), 'run command: "echo \\"hi\\"\\u001b[2J"');
  });
});
