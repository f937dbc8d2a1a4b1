// Issue 28 (polish): the step form showed a file's content as one JSON string of escaped newlines, and a new tool step
// started with "{}" whatever its tool needs. Arguments are YAML for editing (a text of several lines as it is), and a
// tool's required arguments are a template to fill in.
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { toolParameters } from '../../../../src/core/tools/toolParameters';
import { argumentsTemplate, argumentsText } from '../../../../src/core/view/argumentsText';

const template = (name: string): string => {
  const tool = builtinTools().find((entry) => entry.name === name);
  assert.ok(tool, name);
  return argumentsTemplate(toolParameters(tool));
};

describe('argumentsText and argumentsTemplate', () => {
  it('writes a text of several lines as it is (a literal block), quotes included, and reads back the same', () => {
    const args = { path: 'notes.txt', content: 'first line\n"quoted" second\n' };
    const text = argumentsText(args);
    assert.equal(text, 'path: notes.txt\ncontent: |\n  first line\n  "quoted" second');
    assert.deepEqual(parse(text), args);
    const edits = { path: 'calc.py', edits: [{ search: 'a - b', replace: 'a + b\n# fixed' }] };
    assert.equal(argumentsText(edits), 'path: calc.py\nedits:\n  - search: a - b\n    replace: |-\n      a + b\n      # fixed');
    assert.deepEqual(parse(argumentsText(edits)), edits);
  });

  it('writes a list of words on one line, and nothing as {} or []', () => {
    assert.equal(argumentsText({ argv: ['python', '-m', 'pytest', '-q'], allowFailure: true }), 'argv: [python, -m, pytest, -q]\nallowFailure: true');
    assert.equal(argumentsText({}), '{}');
    assert.equal(argumentsText([]), '[]');
    assert.equal(argumentsText(undefined), '{}');
    assert.equal(argumentsText([{ kind: 'command', argv: ['pytest'] }]), '- kind: command\n  argv: [pytest]');
  });

  it("gives each built-in tool's required arguments, with an empty value of their type, one level into a list of objects", () => {
    assert.equal(template('write_file'), 'path: ""\ncontent: ""');
    assert.equal(template('edit_file'), 'path: ""\nedits:\n  - search: ""\n    replace: ""');
    assert.equal(template('run_command'), 'argv: []');
    assert.equal(template('list_files'), '{}');
  });

  it('fills numbers, booleans, nullable types and nested objects, and leaves what is not required out', () => {
    const schema = {
      type: 'object',
      properties: {
        count: { type: 'integer' },
        ratio: { type: 'number' },
        force: { type: 'boolean' },
        label: { type: ['string', 'null'] },
        options: { type: 'object', properties: { deep: { type: 'object', properties: { deeper: { type: 'string' } }, required: ['deeper'] } }, required: ['deep'] },
        words: { type: 'array', items: { type: 'string' } },
        optional: { type: 'string' },
      },
      required: ['count', 'ratio', 'force', 'label', 'options', 'words', 'missing'],
    };
    assert.deepEqual(parse(argumentsTemplate(schema)), { count: 0, ratio: 0, force: false, label: '', options: { deep: { deeper: '' } }, words: [] });
    assert.equal(argumentsTemplate({ properties: { a: {} }, required: ['a'] }), 'a: ""');
  });
});
