// The eval's tasks over the fixture repository test/eval/fixtures/greeter (see evalTasks.ts).
import { edit, fileContains, write, testsPass, type EvalTask } from '../evalTask';

const greetTest = "test('greets by name', () => {\n  assert.strictEqual(greet('Ada'), 'Hello, Ada!');\n});\n";

/** The tasks over the greeter fixture. */
export const greeterTasks: readonly EvalTask[] = [
  {
    id: 'greeter-rename',
    fixture: 'greeter',
    request: 'Rename the function greet to sayHello everywhere it is defined, imported or called, and keep the tests passing.',
    plan: { files: ['src/greet.js', 'src/index.js', 'test/greet.test.js'], checkKinds: ['command'] },
    host: [{ kind: 'lacks', path: 'src/index.js', text: 'greet(' }, { kind: 'contains', path: 'src/greet.js', text: 'function sayHello' }, { kind: 'tests' }],
    canned: [
      edit('S1', 'src/greet.js', [
        ['function greet(name)', 'function sayHello(name)'],
        ['module.exports = { greet };', 'module.exports = { sayHello };'],
      ]),
      edit('S2', 'src/index.js', [
        ['const { greet }', 'const { sayHello }'],
        ['console.log(greet(', 'console.log(sayHello('],
      ]),
      edit(
        'S3',
        'test/greet.test.js',
        [
          ['const { greet }', 'const { sayHello }'],
          ["greet('Ada')", "sayHello('Ada')"],
        ],
        { dependsOn: ['S1'], checks: [testsPass] },
      ),
    ],
  },
  {
    id: 'greeter-shout-flag',
    fixture: 'greeter',
    request: 'Add a --shout flag to src/index.js that prints the greeting in upper case; greet gets a shout option, with a test.',
    plan: { files: ['src/greet.js', 'src/index.js', 'test/greet.test.js'], checkKinds: ['command'] },
    host: [{ kind: 'contains', path: 'src/index.js', text: '--shout' }, { kind: 'contains', path: 'test/greet.test.js', text: 'shout' }, { kind: 'tests' }],
    canned: [
      edit('S1', 'src/greet.js', [
        [
          'function greet(name) {\n  return `Hello, ${name}!`;',
          'function greet(name, options = {}) {\n  const text = `Hello, ${name}!`;\n  return options.shout ? text.toUpperCase() : text;',
        ],
      ]),
      edit('S2', 'src/index.js', [
        [
          "console.log(greet(process.argv[2] ?? 'world'));",
          "const args = process.argv.slice(2);\nconst shout = args.includes('--shout');\nconst name = args.find((arg) => arg !== '--shout') ?? 'world';\nconsole.log(greet(name, { shout }));",
        ],
      ]),
      edit(
        'S3',
        'test/greet.test.js',
        [[greetTest, `${greetTest}\ntest('shouts', () => {\n  assert.strictEqual(greet('Ada', { shout: true }), 'HELLO, ADA!');\n});\n`]],
        { dependsOn: ['S1'], checks: [testsPass] },
      ),
    ],
  },
  {
    id: 'greeter-bump-version',
    fixture: 'greeter',
    request: 'Bump the version to 1.3.0 and add a changelog entry "Greet in German."',
    plan: { files: ['package.json', 'CHANGELOG.md'], checkKinds: ['file_contains'] },
    host: [
      { kind: 'contains', path: 'package.json', text: '"version": "1.3.0"' },
      { kind: 'contains', path: 'CHANGELOG.md', text: '## 1.3.0' },
    ],
    canned: [
      edit('S1', 'package.json', [['"version": "1.2.0"', '"version": "1.3.0"']], { checks: [fileContains('package.json', '"version": "1.3.0"')] }),
      edit('S2', 'CHANGELOG.md', [['# Changelog\n', '# Changelog\n\n## 1.3.0\n\n- Greet in German.\n']], {
        checks: [fileContains('CHANGELOG.md', '## 1.3.0')],
      }),
    ],
  },
  {
    id: 'greeter-farewell',
    fixture: 'greeter',
    request: 'Add a farewell(name) function next to greet that returns "Goodbye, NAME!", exported, with a test.',
    plan: { files: ['src/greet.js', 'test/greet.test.js'], checkKinds: ['command'] },
    host: [
      { kind: 'contains', path: 'src/greet.js', text: 'function farewell' },
      { kind: 'contains', path: 'test/greet.test.js', text: 'farewell' },
      { kind: 'tests' },
    ],
    canned: [
      edit('S1', 'src/greet.js', [
        ['module.exports = { greet };', 'function farewell(name) {\n  return `Goodbye, ${name}!`;\n}\n\nmodule.exports = { greet, farewell };'],
      ]),
      edit(
        'S2',
        'test/greet.test.js',
        [
          ["const { greet } = require('../src/greet');", "const { greet, farewell } = require('../src/greet');"],
          [greetTest, `${greetTest}\ntest('says goodbye', () => {\n  assert.strictEqual(farewell('Ada'), 'Goodbye, Ada!');\n});\n`],
        ],
        {
          dependsOn: ['S1'],
          checks: [testsPass],
        },
      ),
    ],
  },
  {
    id: 'greeter-readme-usage',
    fixture: 'greeter',
    request: 'Document in README.md how to run the greeter from the command line (node src/index.js NAME).',
    plan: { files: ['README.md'], checkKinds: ['file_contains'] },
    host: [{ kind: 'contains', path: 'README.md', text: 'node src/index.js' }],
    canned: [
      edit('S1', 'README.md', [['to get a greeting.\n', 'to get a greeting.\n\n## Command line\n\n    node src/index.js Ada\n']], {
        checks: [fileContains('README.md', 'node src/index.js')],
      }),
    ],
  },
  {
    id: 'greeter-jsdoc',
    fixture: 'greeter',
    request: 'Add a JSDoc comment to greet describing its parameter and return value.',
    plan: { files: ['src/greet.js'], checkKinds: ['file_contains'] },
    host: [{ kind: 'contains', path: 'src/greet.js', text: '@param' }, { kind: 'tests' }],
    canned: [
      edit(
        'S1',
        'src/greet.js',
        [['function greet(name)', '/**\n * @param {string} name who to greet\n * @returns {string} the greeting\n */\nfunction greet(name)']],
        { checks: [fileContains('src/greet.js', '@param')] },
      ),
    ],
  },
  {
    id: 'greeter-gitignore',
    fixture: 'greeter',
    request: 'Add a .gitignore that ignores node_modules and coverage output.',
    plan: { files: ['.gitignore'], checkKinds: ['file_exists'] },
    host: [
      { kind: 'contains', path: '.gitignore', text: 'node_modules' },
      { kind: 'contains', path: '.gitignore', text: 'coverage' },
    ],
    canned: [write('S1', '.gitignore', 'node_modules/\ncoverage/\n', { checks: [{ kind: 'file_exists', path: '.gitignore' }] })],
  },
];
