import assert from 'node:assert/strict';
import { recognizeCommand, type CommandContext } from '../../../../src/core/planner/recognizeCommand';

/** The argv of each call (with its folder), or `undefined` when the text is not a command line. */
const argvOf = (text: string, context: CommandContext = {}) =>
  recognizeCommand(text, context)?.calls.map((call) => [...(call.args['argv'] as string[]), ...(call.args['cwd'] ? [`(in ${String(call.args['cwd'])})`] : [])]);

describe('recognizeCommand: real command lines only (issue 29, item 2)', () => {
  it('never turns English after a program into arguments: such a step names the program for a person', () => {
    for (const text of [
      'run mypy on it',
      'run black on the package',
      'run pytest with coverage',
      'run npm test before committing',
      'run npm run lint on everything',
      'run python3 -m pytest on the whole thing',
      'run make on the project',
      'run jest in watch mode',
      'run pytest quickly',
      'run git pull from upstream please',
    ]) {
      assert.equal(argvOf(text), undefined, text);
    }
  });

  it('reads double quotes as a shell does: a backslash escapes only $ ` " \\ and stays before anything else (a trial\'s "\\n" became "n")', () => {
    assert.deepEqual(argvOf('run node -e "console.log(\'a\\nb\')"'), [['node', '-e', "console.log('a\\nb')"]]);
    assert.deepEqual(argvOf('run echo "a \\"quoted\\" \\$HOME \\\\ end"'), [['echo', 'a "quoted" $HOME \\ end']]);
  });

  it('reads the well-known forms: the suite of a test runner, the tests with a program, a linter on paths or on the project', () => {
    assert.deepEqual(argvOf('run the pytest suite'), [['pytest']]);
    assert.deepEqual(argvOf('Run pytest suite'), [['pytest']]);
    assert.deepEqual(argvOf('run the npm tests'), [['npm', 'test']]);
    assert.deepEqual(argvOf('run the go test suite'), [['go', 'test', './...']]);
    assert.deepEqual(argvOf('run the tests with pytest'), [['pytest']]);
    assert.deepEqual(argvOf('run the unit tests using `python3 -m pytest -q`'), [['python3', '-m', 'pytest', '-q']]);
    assert.deepEqual(argvOf('run mypy on src/pkg'), [['mypy', 'src/pkg']]);
    assert.deepEqual(argvOf('run black on src and tests to format them'), [['black', 'src', 'tests']]);
    assert.deepEqual(argvOf('run ruff on src'), [['ruff', 'check', 'src']]);
    assert.deepEqual(argvOf('run mypy on the project'), [['mypy', '.']]);
    assert.deepEqual(argvOf('run black on save'), undefined);
  });

  it('runs "it" on the paths the step before named, and nothing without them', () => {
    assert.deepEqual(argvOf('run mypy on it', { referentPaths: ['src/app.py'] }), [['mypy', 'src/app.py']]);
    assert.equal(argvOf('run mypy on it', { referentPaths: [] }), undefined);
    assert.equal(argvOf('run npm test on it', { referentPaths: ['src/app.ts'] }), undefined);
  });

  it('runs "the tests" with the project\'s test command only', () => {
    assert.deepEqual(argvOf('run the tests', { testCommand: ['npm', 'test'] }), [['npm', 'test']]);
    assert.deepEqual(argvOf('Run all the tests', { testCommand: ['pytest'] }), [['pytest']]);
    assert.equal(argvOf('run the tests'), undefined);
  });

  it('runs the project\'s tests for a check that they pass ("make sure the tests pass"), and nothing without a test command', () => {
    const npm = { testCommand: ['npm', 'test'] };
    for (const text of ['make sure the tests pass', 'Ensure all tests still pass.', 'check that the unit tests pass', 'verify the test suite is green', 'make sure all of the tests pass again']) {
      assert.deepEqual(argvOf(text, npm), [['npm', 'test']], text);
    }
    assert.equal(argvOf('make sure the tests pass'), undefined);
    // Not a claim that the tests pass: left to a person or an agent.
    for (const text of ['make sure the tests cover the parser', 'ensure the tests pass on Windows', 'check the tests', 'make sure tests are fast']) {
      assert.equal(argvOf(text, npm), undefined, text);
    }
  });

  it('takes options, paths, numbers, quoted text, subcommands and names where the program takes them', () => {
    assert.deepEqual(argvOf('run pytest -q tests/test_api.py'), [['pytest', '-q', 'tests/test_api.py']]);
    assert.deepEqual(argvOf('run pytest -k slow'), [['pytest', '-k', 'slow']]);
    assert.deepEqual(argvOf('run npm install lodash'), [['npm', 'install', 'lodash']]);
    assert.deepEqual(argvOf('run npm run build:prod'), [['npm', 'run', 'build:prod']]);
    assert.deepEqual(argvOf('run python3 manage.py migrate'), [['python3', 'manage.py', 'migrate']]);
    assert.deepEqual(argvOf('run python -m pytest -q tests/'), [['python', '-m', 'pytest', '-q', 'tests/']]);
    assert.deepEqual(argvOf('run git checkout main'), [['git', 'checkout', 'main']]);
    assert.deepEqual(argvOf('run docker compose up -d'), [['docker', 'compose', 'up', '-d']]);
    assert.deepEqual(argvOf('run go test ./...'), [['go', 'test', './...']]);
    assert.deepEqual(argvOf('run eslint .'), [['eslint', '.']]);
    assert.deepEqual(argvOf('run make test'), [['make', 'test']]);
    assert.deepEqual(argvOf('Run node scripts/build.js in packages/web'), [['node', 'scripts/build.js', '(in packages/web)']]);
    assert.deepEqual(argvOf('run git status to see what changed'), [['git', 'status']]);
    assert.deepEqual(argvOf('run npm test, please'), [['npm', 'test']]);
  });

  it('reads commands in backticks as written, also among run words of other languages, and several of them', () => {
    assert.deepEqual(argvOf('Run `git status` and `git diff`'), [['git', 'status'], ['git', 'diff']]);
    assert.deepEqual(argvOf('run `./deploy.sh --prod` in infra'), [['./deploy.sh', '--prod', '(in infra)']]);
    assert.deepEqual(argvOf('führe `npm test` aus'), [['npm', 'test']]);
    assert.deepEqual(argvOf('运行 `npm test`'), [['npm', 'test']]);
    assert.deepEqual(argvOf('`pytest -q` を実行して'), [['pytest', '-q']]);
    assert.deepEqual(argvOf('lance `npm test`'), [['npm', 'test']]);
    assert.deepEqual(argvOf('ejecuta `npm test`, por favor'), [['npm', 'test']]);
    assert.deepEqual(argvOf('rode `pytest`'), [['pytest']]);
  });

  it('leaves a backticked command with more said of it than a folder, a purpose or "report the results"', () => {
    assert.equal(argvOf('Run `npm test` and fix the failures'), undefined);
    assert.equal(argvOf('Run `npm test` with coverage'), undefined);
    assert.equal(argvOf('Add `lodash` to the dependencies'), undefined);
    assert.deepEqual(argvOf('Run `npm test` and report the results'), [['npm', 'test']]);
    assert.deepEqual(argvOf('make sure `npm run lint` passes'), [['npm', 'run', 'lint']]);
  });
});
