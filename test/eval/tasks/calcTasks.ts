// The eval's tasks over the fixture repository test/eval/fixtures/calc (see evalTasks.ts).
import { edit, fileContains, testsPass, type EvalTask } from '../evalTask';

/** The tasks over the calc fixture. */
export const calcTasks: readonly EvalTask[] = [
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
