import assert from 'node:assert/strict';
import { typeaheadPauseMs, typeaheadPick, typedAfter } from '../../../webview/typeahead';

const tools = ['create_directory', 'edit_file', 'fetch_url', 'list_files', 'read_file', 'run_command', 'search_text', 'write_file'];

describe('typeahead: choosing an option by typing, as a native select does', () => {
  it('picks the first option starting with what was typed, case-insensitively, and keeps it as the prefix grows', () => {
    assert.equal(typeaheadPick(tools, 'read_file', 'w'), 'write_file');
    assert.equal(typeaheadPick(tools, 'write_file', 'wr'), 'write_file', 'a longer prefix keeps a match');
    assert.equal(typeaheadPick(tools, 'read_file', 'RUN'), 'run_command');
    assert.equal(typeaheadPick(tools, 'read_file', 'se'), 'search_text');
  });

  it('goes through the options starting with one letter, typed again and again, and wraps', () => {
    assert.equal(typeaheadPick(tools, 'create_directory', 'r'), 'read_file');
    assert.equal(typeaheadPick(tools, 'read_file', 'r'), 'run_command');
    assert.equal(typeaheadPick(tools, 'read_file', 'rr'), 'run_command');
    assert.equal(typeaheadPick(tools, 'run_command', 'rrr'), 'read_file', 'wraps to the first');
  });

  it('leaves the choice when nothing matches, and starts from the top when the current value is none of the options', () => {
    assert.equal(typeaheadPick(tools, 'read_file', 'zz'), undefined);
    assert.equal(typeaheadPick(tools, 'read_file', 'rx'), undefined);
    assert.equal(typeaheadPick(tools, 'append_file', 'e'), 'edit_file');
    assert.equal(typeaheadPick([], '', 'a'), undefined);
  });

  it('extends the typed text within the pause, starts anew after it, and ignores keys that type nothing', () => {
    const first = typedAfter(undefined, 'w', 100);
    assert.deepEqual(first, { text: 'w', at: 100 });
    assert.deepEqual(typedAfter(first, 'r', 100 + typeaheadPauseMs), { text: 'wr', at: 100 + typeaheadPauseMs });
    assert.deepEqual(typedAfter(first, 'r', 101 + typeaheadPauseMs), { text: 'r', at: 101 + typeaheadPauseMs });
    for (const key of ['Enter', 'ArrowDown', 'Tab', '\u0007', 'Shift']) assert.equal(typedAfter(first, key, 150), undefined, key);
    assert.deepEqual(typedAfter(undefined, 'é', 1), { text: 'é', at: 1 });
  });
});
