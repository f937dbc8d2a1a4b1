// The eval's 30 tasks over the fixture repositories in test/eval/fixtures (one folder each, copied per task).
// Each canned plan is a good answer, so the scripted run tests the harness, not a model.
import { edit, type EvalTask, fileContains, testsPass, write } from './evalTask';

const greetTest = "test('greets by name', () => {\n  assert.strictEqual(greet('Ada'), 'Hello, Ada!');\n});\n";

const greeter: EvalTask[] = [
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

const calc: EvalTask[] = [
  {
    id: 'calc-fix-failing-test',
    fixture: 'calc',
    request: 'The multiplies test fails. Fix the bug in the code (not the test).',
    plan: { files: ['src/calc.js'], checkKinds: ['command'] },
    host: [
      { kind: 'contains', path: 'src/calc.js', text: 'a * b' },
      { kind: 'contains', path: 'test/calc.test.js', text: 'multiply(2, 3), 6' },
      { kind: 'tests' },
    ],
    canned: [
      edit('S1', 'src/calc.js', [['function multiply(a, b) {\n  return a + b;', 'function multiply(a, b) {\n  return a * b;']], { checks: [testsPass] }),
    ],
  },
  {
    id: 'calc-divide-by-zero',
    fixture: 'calc',
    request: 'Make divide throw a RangeError when dividing by zero, with a test; fix multiply first so the tests pass.',
    plan: { files: ['src/calc.js', 'test/calc.test.js'], checkKinds: ['command'] },
    host: [{ kind: 'contains', path: 'src/calc.js', text: 'RangeError' }, { kind: 'contains', path: 'test/calc.test.js', text: 'divide' }, { kind: 'tests' }],
    canned: [
      edit('S1', 'src/calc.js', [
        ['  return a + b;\n}\n\nfunction divide', '  return a * b;\n}\n\nfunction divide'],
        ['  return a / b;', "  if (b === 0) throw new RangeError('division by zero');\n  return a / b;"],
      ]),
      edit(
        'S2',
        'test/calc.test.js',
        [
          ['const { add, multiply }', 'const { add, multiply, divide }'],
          ['multiply(2, 3), 6));\n', "multiply(2, 3), 6));\ntest('refuses zero', () => assert.throws(() => divide(1, 0), RangeError));\n"],
        ],
        { dependsOn: ['S1'], checks: [testsPass] },
      ),
    ],
  },
  {
    id: 'calc-subtract',
    fixture: 'calc',
    request: 'Add a subtract(a, b) function with a test.',
    plan: { files: ['src/calc.js', 'test/calc.test.js'], checkKinds: ['command'] },
    host: [
      { kind: 'contains', path: 'src/calc.js', text: 'function subtract' },
      { kind: 'contains', path: 'test/calc.test.js', text: 'subtract(' },
    ],
    canned: [
      edit('S1', 'src/calc.js', [
        [
          'module.exports = { add, multiply, divide };',
          'function subtract(a, b) {\n  return a - b;\n}\n\nmodule.exports = { add, subtract, multiply, divide };',
        ],
      ]),
      edit(
        'S2',
        'test/calc.test.js',
        [
          ['const { add, multiply }', 'const { add, subtract, multiply }'],
          [
            "test('adds', () => assert.strictEqual(add(2, 3), 5));\n",
            "test('adds', () => assert.strictEqual(add(2, 3), 5));\ntest('subtracts', () => assert.strictEqual(subtract(5, 3), 2));\n",
          ],
        ],
        {
          dependsOn: ['S1'],
          checks: [{ kind: 'command', argv: ['node', '--test', '--test-name-pattern', 'subtracts'] }],
        },
      ),
    ],
  },
  {
    id: 'calc-bump-patch',
    fixture: 'calc',
    request: 'Release 0.3.2: bump the version and add "Fix multiply." to the changelog.',
    plan: { files: ['package.json', 'CHANGELOG.md'], checkKinds: ['file_contains'] },
    host: [
      { kind: 'contains', path: 'package.json', text: '"version": "0.3.2"' },
      { kind: 'contains', path: 'CHANGELOG.md', text: 'Fix multiply.' },
    ],
    canned: [
      edit('S1', 'package.json', [['"version": "0.3.1"', '"version": "0.3.2"']]),
      edit('S2', 'CHANGELOG.md', [['# Changelog\n', '# Changelog\n\n## 0.3.2\n\n- Fix multiply.\n']], { checks: [fileContains('CHANGELOG.md', '## 0.3.2')] }),
    ],
  },
  {
    id: 'calc-rename-add',
    fixture: 'calc',
    request: 'Rename add to sum in the code and the tests.',
    plan: { files: ['src/calc.js', 'test/calc.test.js'], checkKinds: ['file_contains'] },
    host: [
      { kind: 'contains', path: 'src/calc.js', text: 'function sum' },
      { kind: 'lacks', path: 'test/calc.test.js', text: 'add(' },
    ],
    canned: [
      edit('S1', 'src/calc.js', [
        ['function add(a, b)', 'function sum(a, b)'],
        ['module.exports = { add,', 'module.exports = { sum,'],
      ]),
      edit(
        'S2',
        'test/calc.test.js',
        [
          ['const { add, multiply }', 'const { sum, multiply }'],
          ["test('adds', () => assert.strictEqual(add(2, 3), 5));", "test('adds', () => assert.strictEqual(sum(2, 3), 5));"],
        ],
        {
          checks: [fileContains('test/calc.test.js', 'sum(2, 3)')],
        },
      ),
    ],
  },
];

const cli: EvalTask[] = [
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

const shop: EvalTask[] = [
  {
    id: 'shop-rename-across-files',
    fixture: 'shop',
    request: 'Rename getPrice to priceOf across every file that defines or uses it.',
    plan: { files: ['src/prices.js', 'src/cart.js', 'src/invoice.js'], checkKinds: ['command'] },
    host: [
      { kind: 'lacks', path: 'src/cart.js', text: 'getPrice' },
      { kind: 'lacks', path: 'src/invoice.js', text: 'getPrice' },
      { kind: 'lacks', path: 'src/prices.js', text: 'getPrice' },
      { kind: 'tests' },
    ],
    canned: [
      edit('S1', 'src/prices.js', [
        ['function getPrice(sku)', 'function priceOf(sku)'],
        ['module.exports = { getPrice };', 'module.exports = { priceOf };'],
      ]),
      edit('S2', 'src/cart.js', [
        ['const { getPrice }', 'const { priceOf }'],
        ['getPrice(item.sku)', 'priceOf(item.sku)'],
      ]),
      edit(
        'S3',
        'src/invoice.js',
        [
          ['const { getPrice }', 'const { priceOf }'],
          ['getPrice(item.sku)', 'priceOf(item.sku)'],
        ],
        { dependsOn: ['S1', 'S2'], checks: [testsPass] },
      ),
    ],
  },
  {
    id: 'shop-discount',
    fixture: 'shop',
    request: 'Give cartTotal an optional discount (a fraction, default 0) and test it.',
    plan: { files: ['src/cart.js', 'test/cart.test.js'], checkKinds: ['command'] },
    host: [{ kind: 'contains', path: 'src/cart.js', text: 'discount' }, { kind: 'contains', path: 'test/cart.test.js', text: 'discount' }, { kind: 'tests' }],
    canned: [
      edit('S1', 'src/cart.js', [
        [
          'function cartTotal(items) {\n  return items.reduce((sum, item) => sum + getPrice(item.sku) * item.quantity, 0);',
          'function cartTotal(items, discount = 0) {\n  const total = items.reduce((sum, item) => sum + getPrice(item.sku) * item.quantity, 0);\n  return total * (1 - discount);',
        ],
      ]),
      edit(
        'S2',
        'test/cart.test.js',
        [
          [
            'quantity: 2 }]), 6));\n',
            "quantity: 2 }]), 6));\ntest('applies a discount', () => assert.strictEqual(cartTotal([{ sku: 'pear', quantity: 1 }], 0.5), 2));\n",
          ],
        ],
        { dependsOn: ['S1'], checks: [testsPass] },
      ),
    ],
  },
  {
    id: 'shop-pear-test',
    fixture: 'shop',
    request: 'Add a cart test with pears.',
    plan: { files: ['test/cart.test.js'], checkKinds: ['command'] },
    host: [{ kind: 'contains', path: 'test/cart.test.js', text: 'pear' }, { kind: 'tests' }],
    canned: [
      edit(
        'S1',
        'test/cart.test.js',
        [
          [
            'quantity: 2 }]), 6));\n',
            "quantity: 2 }]), 6));\ntest('totals pears', () => assert.strictEqual(cartTotal([{ sku: 'pear', quantity: 3 }]), 12));\n",
          ],
        ],
        { checks: [testsPass] },
      ),
    ],
  },
  {
    id: 'shop-bump-minor',
    fixture: 'shop',
    request: 'Release 0.10.0 with the changelog entry "Discounts."',
    plan: { files: ['package.json', 'CHANGELOG.md'], checkKinds: ['file_contains'] },
    host: [
      { kind: 'contains', path: 'package.json', text: '"version": "0.10.0"' },
      { kind: 'contains', path: 'CHANGELOG.md', text: '## 0.10.0' },
    ],
    canned: [
      edit('S1', 'package.json', [['"version": "0.9.0"', '"version": "0.10.0"']], { checks: [fileContains('package.json', '0.10.0')] }),
      edit('S2', 'CHANGELOG.md', [['# Changelog\n', '# Changelog\n\n## 0.10.0\n\n- Discounts.\n']]),
    ],
  },
  {
    id: 'shop-invoice-test',
    fixture: 'shop',
    request: 'Add tests for invoiceLine in test/invoice.test.js.',
    plan: { files: ['test/invoice.test.js'], checkKinds: ['command'] },
    host: [{ kind: 'contains', path: 'test/invoice.test.js', text: 'invoiceLine' }, { kind: 'tests' }],
    canned: [
      write(
        'S1',
        'test/invoice.test.js',
        "'use strict';\n\nconst test = require('node:test');\nconst assert = require('node:assert');\nconst { invoiceLine } = require('../src/invoice');\n\ntest('prints a line', () => assert.strictEqual(invoiceLine({ sku: 'apple', quantity: 2 }), 'apple x2: 6'));\n",
        {
          checks: [testsPass],
        },
      ),
    ],
  },
  {
    id: 'shop-remove-invoice',
    fixture: 'shop',
    request: 'Remove the unused invoice module and mention it in the changelog.',
    plan: { files: ['src/invoice.js', 'CHANGELOG.md'], checkKinds: ['file_absent'] },
    host: [{ kind: 'absent', path: 'src/invoice.js' }, { kind: 'contains', path: 'CHANGELOG.md', text: 'invoice' }, { kind: 'tests' }],
    canned: [
      {
        id: 'S1',
        title: 'Delete src/invoice.js',
        kind: 'tool',
        dependsOn: [],
        tool: 'delete_file',
        args: { path: 'src/invoice.js' },
        checks: [{ kind: 'file_absent', path: 'src/invoice.js' }],
      },
      edit('S2', 'CHANGELOG.md', [['# Changelog\n', '# Changelog\n\n## Unreleased\n\n- Remove the invoice module.\n']]),
    ],
  },
];

const docs: EvalTask[] = [
  {
    id: 'docs-add-page',
    fixture: 'docs',
    request: 'Add a FAQ page docs/faq.md and link it from mkdocs.yml and the README.',
    plan: { files: ['docs/faq.md', 'mkdocs.yml', 'README.md'], checkKinds: ['file_exists'] },
    host: [
      { kind: 'contains', path: 'mkdocs.yml', text: 'docs/faq.md' },
      { kind: 'contains', path: 'README.md', text: 'docs/faq.md' },
      { kind: 'contains', path: 'docs/faq.md', text: '# ' },
    ],
    canned: [
      write('S1', 'docs/faq.md', '# FAQ\n\n## Does gadget need a network?\n\nNo.\n', { checks: [{ kind: 'file_exists', path: 'docs/faq.md' }] }),
      edit('S2', 'mkdocs.yml', [['  - Usage: docs/usage.md\n', '  - Usage: docs/usage.md\n  - FAQ: docs/faq.md\n']]),
      edit('S3', 'README.md', [['See docs/install.md and docs/usage.md.', 'See docs/install.md, docs/usage.md and docs/faq.md.']]),
    ],
  },
  {
    id: 'docs-rename-api',
    fixture: 'docs',
    request: 'The API call gadget.stop() is now gadget.shutdown(): update the docs.',
    plan: { files: ['docs/usage.md'], checkKinds: ['file_contains'] },
    host: [
      { kind: 'lacks', path: 'docs/usage.md', text: 'stop()' },
      { kind: 'contains', path: 'docs/usage.md', text: 'gadget.shutdown()' },
    ],
    canned: [edit('S1', 'docs/usage.md', [['`gadget.stop()`', '`gadget.shutdown()`']], { checks: [fileContains('docs/usage.md', 'gadget.shutdown()')] })],
  },
  {
    id: 'docs-uninstall',
    fixture: 'docs',
    request: 'Add an Uninstall section to docs/install.md.',
    plan: { files: ['docs/install.md'], checkKinds: ['file_contains'] },
    host: [{ kind: 'contains', path: 'docs/install.md', text: 'Uninstall' }],
    canned: [
      edit('S1', 'docs/install.md', [['Run `npm install gadget`.\n', 'Run `npm install gadget`.\n\n## Uninstall\n\nRun `npm uninstall gadget`.\n']], {
        checks: [fileContains('docs/install.md', '## Uninstall')],
      }),
    ],
  },
];

const config: EvalTask[] = [
  {
    id: 'config-port',
    fixture: 'config',
    request: 'Change the default port to 3000.',
    plan: { files: ['config/default.json'], checkKinds: ['command'] },
    host: [{ kind: 'contains', path: 'config/default.json', text: '"port": 3000' }, { kind: 'tests' }],
    canned: [edit('S1', 'config/default.json', [['"port": 8080', '"port": 3000']], { checks: [testsPass] })],
  },
  {
    id: 'config-host-setting',
    fixture: 'config',
    request: 'Add a "host" setting (default "0.0.0.0") and show it in the server description, with the test updated.',
    plan: { files: ['config/default.json', 'src/server.js', 'test/server.test.js'], checkKinds: ['command'] },
    host: [
      { kind: 'contains', path: 'config/default.json', text: '"host"' },
      { kind: 'contains', path: 'src/server.js', text: 'config.host' },
      { kind: 'tests' },
    ],
    canned: [
      edit('S1', 'config/default.json', [['"port": 8080,', '"host": "0.0.0.0",\n  "port": 8080,']]),
      edit('S2', 'src/server.js', [['listening on ${config.port}', 'listening on ${config.host}:${config.port}']]),
      edit('S3', 'test/server.test.js', [['/listening on \\d+/', '/listening on 0\\.0\\.0\\.0:\\d+/']], { dependsOn: ['S1', 'S2'], checks: [testsPass] }),
    ],
  },
  {
    id: 'config-bump-changelog',
    fixture: 'config',
    request: 'Bump the service to 3.5.0 and create a CHANGELOG.md saying the port is configurable.',
    plan: { files: ['package.json', 'CHANGELOG.md'], checkKinds: ['file_contains'] },
    host: [
      { kind: 'contains', path: 'package.json', text: '"version": "3.5.0"' },
      { kind: 'contains', path: 'CHANGELOG.md', text: '3.5.0' },
    ],
    canned: [
      edit('S1', 'package.json', [['"version": "3.4.5"', '"version": "3.5.0"']]),
      write('S2', 'CHANGELOG.md', '# Changelog\n\n## 3.5.0\n\n- The port is configurable.\n', { checks: [fileContains('CHANGELOG.md', '3.5.0')] }),
    ],
  },
  {
    id: 'config-ignore-env',
    fixture: 'config',
    request: 'Ignore .env files in git.',
    plan: { files: ['.gitignore'], checkKinds: ['file_contains'] },
    host: [
      { kind: 'contains', path: '.gitignore', text: '.env' },
      { kind: 'contains', path: '.gitignore', text: 'node_modules/' },
    ],
    canned: [edit('S1', '.gitignore', [['node_modules/\n', 'node_modules/\n.env\n']], { checks: [fileContains('.gitignore', '.env')] })],
  },
];

/** Every realistic task, in the order the eval runs them. */
export const evalTasks: readonly EvalTask[] = [...greeter, ...calc, ...cli, ...shop, ...docs, ...config];
