// The eval's tasks over the fixture repository test/eval/fixtures/cli (see evalTasks.ts).
import { edit, fileContains, write, testsPass, type EvalTask } from '../evalTask';

/** The tasks over the cli fixture. */
export const cliTasks: readonly EvalTask[] = [
  {
    id: 'cli-lines-flag',
    fixture: 'cli',
    request: 'Add a --lines flag to wordcount that counts lines instead of words, with a test.',
    plan: { files: ['src/args.js', 'src/count.js', 'test/count.test.js'], checkKinds: ['command'] },
    host: [{ kind: 'contains', path: 'src/args.js', text: '--lines' }, { kind: 'contains', path: 'test/count.test.js', text: 'lines' }, { kind: 'tests' }],
    canned: [
      edit('S1', 'src/args.js', [
        [
          '  for (const arg of argv) {\n    words.push(arg);',
          "  for (const arg of argv) {\n    if (arg === '--lines') options.lines = true;\n    else words.push(arg);",
        ],
      ]),
      edit('S2', 'src/count.js', [
        ['function count(text) {\n  return', "function count(text, options = {}) {\n  if (options.lines) return text.split('\\n').length;\n  return"],
      ]),
      edit(
        'S3',
        'test/count.test.js',
        [["count('a b  c'), 3));\n", "count('a b  c'), 3));\ntest('counts lines', () => assert.strictEqual(count('a\\nb', { lines: true }), 2));\n"]],
        { dependsOn: ['S2'], checks: [testsPass] },
      ),
    ],
  },
  {
    id: 'cli-help-flag',
    fixture: 'cli',
    request: 'Make wordcount print a usage line and exit when given --help.',
    plan: { files: ['bin/wordcount.js'], checkKinds: ['command'] },
    host: [{ kind: 'contains', path: 'bin/wordcount.js', text: 'Usage' }, { kind: 'tests' }],
    canned: [
      edit(
        'S1',
        'bin/wordcount.js',
        [
          [
            'const options = parseArgs(',
            "if (process.argv.includes('--help')) {\n  console.log('Usage: wordcount [--help] TEXT');\n  process.exit(0);\n}\n\nconst options = parseArgs(",
          ],
        ],
        {
          checks: [{ kind: 'command', argv: ['node', 'bin/wordcount.js', '--help'], outputContains: 'Usage' }],
        },
      ),
    ],
  },
  {
    id: 'cli-readme-flags',
    fixture: 'cli',
    request: 'Document the --help flag of wordcount in README.md.',
    plan: { files: ['README.md'], checkKinds: ['file_contains'] },
    host: [{ kind: 'contains', path: 'README.md', text: '--help' }],
    canned: [
      edit('S1', 'README.md', [['how many words TEXT has.\n', 'how many words TEXT has.\n\n`wordcount --help` prints the usage.\n']], {
        checks: [fileContains('README.md', '--help')],
      }),
    ],
  },
  {
    id: 'cli-bump-with-new-changelog',
    fixture: 'cli',
    request: 'Bump wordcount to 2.1.0 and start a CHANGELOG.md with that release.',
    plan: { files: ['package.json', 'CHANGELOG.md'], checkKinds: ['file_exists'] },
    host: [
      { kind: 'contains', path: 'package.json', text: '"version": "2.1.0"' },
      { kind: 'contains', path: 'CHANGELOG.md', text: '2.1.0' },
    ],
    canned: [
      edit('S1', 'package.json', [['"version": "2.0.0"', '"version": "2.1.0"']]),
      write('S2', 'CHANGELOG.md', '# Changelog\n\n## 2.1.0\n\n- First entry.\n', { checks: [{ kind: 'file_exists', path: 'CHANGELOG.md' }] }),
    ],
  },
  {
    id: 'cli-args-test',
    fixture: 'cli',
    request: 'Add a test file for parseArgs in test/args.test.js.',
    plan: { files: ['test/args.test.js'], checkKinds: ['command'] },
    host: [{ kind: 'contains', path: 'test/args.test.js', text: 'parseArgs' }, { kind: 'tests' }],
    canned: [
      write(
        'S1',
        'test/args.test.js',
        "'use strict';\n\nconst test = require('node:test');\nconst assert = require('node:assert');\nconst { parseArgs } = require('../src/args');\n\ntest('joins the words', () => assert.strictEqual(parseArgs(['a', 'b']).text, 'a b'));\n",
        {
          checks: [testsPass],
        },
      ),
    ],
  },
];
