// The eval's tasks over the fixture repository test/eval/fixtures/shop (see evalTasks.ts).
import { edit, fileContains, write, testsPass, type EvalTask } from '../evalTask';

/** The tasks over the shop fixture. */
export const shopTasks: readonly EvalTask[] = [
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
