// ESLint flat config: typescript-eslint's type-checked recommended rules over the TypeScript of
// src, webview and test (each file checked against the tsconfig that compiles it), the plain
// recommended rules over the JavaScript scripts, and a few rules of this repository's own.
// Run with `npm run lint`; `npm test` runs it as its own suite.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import regexp from 'eslint-plugin-regexp';

/**
 * The TypeScript projects the type-checked rules read, each file in the first that holds it: src alone first, so its files
 * are linted with src's own types (scripts/typesAndLint.mjs makes these programs once for tsc and the lint).
 */
export const typedProjects = ['./tsconfig.json', './webview/tsconfig.json', './test/tsconfig.json', './test/host/tsconfig.json'];

const noDefaultExport = { selector: 'ExportDefaultDeclaration', message: 'Use a named export: this repository has no default exports.' };

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      '.stryker-tmp/**',
      'test/host/node_modules/**',
      'test/host/.cache/**',
      // Sample projects the tests plan and run against, not code of the extension.
      'test/fixtures/**',
    ],
  },
  // No regular expression of the extension or its webview can backtrack super-linearly: its inputs are
  // model output, files and tool output of any size (ReDoS). A static proof, where a timed test could only sample.
  {
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
      'regexp/no-misleading-capturing-group': 'error',
    },
  },
  // A disable comment that no longer silences anything is an error, so none outlives its reason.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        project: typedProjects,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Off: an `async` function without `await` is how this code implements a port that returns a
      // promise (fakes, stores, adapters); `async` turns a synchronous throw into a rejection,
      // which callers rely on, so dropping it would change behaviour.
      '@typescript-eslint/require-await': 'off',
      // Off: the compiler's noUnusedLocals / noUnusedParameters report the same, once.
      '@typescript-eslint/no-unused-vars': 'off',
      // An abort passes on `signal.reason` as it came (an Error or whatever the canceller gave).
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
      // A switch over a domain union (step kinds, statuses, events) names every member or has a default.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      'no-restricted-syntax': ['error', noDefaultExport],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // A committed `.only` runs one test and passes (every mocha run also has --forbid-only).
      'no-restricted-syntax': ['error', noDefaultExport, {
        selector: 'CallExpression > MemberExpression.callee[object.name=/^(describe|context|suite|it|specify|test)$/][property.name="only"]',
        message: 'A committed .only runs this test alone and hides the others: remove it.',
      }],
      // Off in tests: `String(message.content)` and the like turn what a fake recorded into text to
      // match, and a failing assertion then shows the value as it was.
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    rules: {
      // Off: the code strips control characters from text before it reaches a terminal, so its
      // regular expressions name them on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      // src is type-checked once, in the test program (test/tsconfig.json), whose types include mocha's globals.
      'no-restricted-globals': ['error', ...['describe', 'context', 'suite', 'it', 'specify', 'test', 'before', 'after', 'beforeEach', 'afterEach', 'run', 'xit', 'xdescribe']
        .map((name) => ({ name, message: 'A mocha global: src has none (it is type-checked with the tests, whose types declare it).' }))],
      // Lines stay readable without scrolling; scripts/wrapLongLines.mjs wraps the ones that grow past
      // it. A line that is one long text on its own (a message, a prompt, a pattern, after `key: `,
      // `return `, `const name = ` or a ternary's `? `/`: `) stays whole: split, it could no longer be
      // searched for. So does a `// Stryker disable next-line` comment, which must sit on the line above its code.
      'max-len': [
        'error',
        {
          code: 160,
          ignoreUrls: true,
          ignorePattern: String.raw`^\s*(?:// Stryker |(?:[\w.]+: |return |(?:const|let) \w+ = |[?:] )?(?:String\.raw)?(?:[\x60'"]|/(?![/*])))`,
        },
      ],
      // A body on the line after its `if` has braces, so a second statement cannot slip out of it.
      curly: ['error', 'multi-line'],
    },
  },
);
