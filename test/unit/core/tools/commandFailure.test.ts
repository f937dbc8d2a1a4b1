import assert from 'node:assert/strict';
import { classifyCommandEnd, classifyStartFailure } from '../../../../src/core/tools/commandFailure';

const ended = (exitCode: number | null, stderr = '', stdout = '', more: { timedOut?: boolean; signal?: string } = {}) => ({
  exitCode,
  stderr,
  stdout,
  timedOut: more.timedOut ?? false,
  signal: more.signal ?? null,
});

describe('classifyCommandEnd: only time-outs, signals and network errors are worth another attempt', () => {
  it('a missing program (exit 127, or a Python module not installed) is not found, not transient', () => {
    const missing = classifyCommandEnd(['npx', 'mypy'], ended(127, 'sh: 1: mypy: not found'));
    assert.deepEqual([missing.kind, missing.transient], ['not_found', false]);
    assert.match(missing.diagnosis ?? '', /not installed or not on PATH/);
    const module = classifyCommandEnd(['python3', '-m', 'pytest', '-q'], ended(1, '/usr/bin/python3: No module named pytest'));
    assert.deepEqual([module.kind, module.transient], ['not_found', false]);
    assert.equal(
      module.diagnosis,
      "the Python module pytest is not installed for python3: install it there (python3 -m pip install pytest) or run the project's environment's Python.",
    );
  });

  it('a program that cannot be executed (exit 126) is not executable, not transient', () => {
    const result = classifyCommandEnd(['./build.sh'], ended(126, 'permission denied'));
    assert.deepEqual([result.kind, result.transient], ['not_executable', false]);
  });

  it('a usage error names the program and quotes what it said: pytest exit 4 and 5, exit 2 or 64 with a usage message', () => {
    const pytest = classifyCommandEnd(['pytest', 'suite'], ended(4, 'ERROR: file or directory not found: suite\n'));
    assert.deepEqual([pytest.kind, pytest.transient], ['usage', false]);
    assert.equal(pytest.diagnosis, 'pytest did not accept its command line (a usage error): ERROR: file or directory not found: suite. Fix the arguments.');
    assert.equal(pytest.notRetried, 'the same command line fails the same way.');
    const argparse = classifyCommandEnd(
      ['python3', '-m', 'mytool', '--fast'],
      ended(2, 'usage: mytool [-h] [--slow]\nmytool: error: unrecognized arguments: --fast\n'),
    );
    assert.equal(argparse.kind, 'usage');
    assert.match(
      argparse.diagnosis ?? '',
      /^mytool did not accept its command line \(a usage error\): mytool: error: unrecognized arguments: --fast \/ usage: mytool \[-h\] \[--slow\]\./,
    );
    assert.equal(classifyCommandEnd(['tar', '-Q'], ended(64, 'tar: invalid option -- Q')).kind, 'usage');
    assert.equal(classifyCommandEnd(['python3', '-m', 'pytest', 'tests/none'], ended(5, '', 'no tests ran in 0.01s')).kind, 'usage');
    assert.equal(
      classifyCommandEnd(['grep', 'x', 'missing.txt'], ended(2, 'grep: missing.txt: No such file or directory')).kind,
      'exit',
      'exit 2 without a usage message is just an exit code',
    );
  });

  // From a newcomer's trial: pytest's exit 2 after an import error of the project's package read "the tests ran and some failed".
  it('pytest that could not collect its tests (exit 2, errors during collection) says no test ran, and why', () => {
    const stdout =
      '==================================== ERRORS ====================================\n_______ ERROR collecting tests/test_cli.py _______\n' +
      "ImportError while importing test module '/ws/tests/test_cli.py'.\nE   ModuleNotFoundError: No module named 'csvsum'\n" +
      '!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!\n1 error in 0.07s\n';
    const module = classifyCommandEnd(['pytest', '-q'], ended(2, '', stdout));
    assert.deepEqual([module.kind, module.transient], ['not_found', false]);
    assert.equal(
      module.diagnosis,
      "pytest could not import csvsum while collecting the tests, so none ran: when it is the project's own package, install it in this environment " +
        "(pip install -e .) or run pytest as python -m pytest from the project's folder; otherwise install csvsum where pytest runs.",
    );
    const syntax = classifyCommandEnd(['python3', '-m', 'pytest'], ended(2, '', 'E   SyntaxError: invalid syntax\nInterrupted: 2 errors during collection\n'));
    assert.deepEqual([syntax.kind, syntax.transient], ['exit', false]);
    assert.match(syntax.diagnosis ?? '', /^pytest could not collect the tests, so none ran: /);
    // A failing test whose output names a missing module is still a failing test.
    const failed = classifyCommandEnd(['pytest'], ended(1, '', "FAILED tests/test_x.py::test_import - No module named 'yaml'\n1 failed"));
    assert.equal(failed.kind, 'tests_failed');
  });

  it('a red test suite is failing tests, not transient, whatever runs it', () => {
    for (const argv of [
      ['pytest', '-q'],
      ['python3', '-m', 'pytest'],
      ['npm', 'test'],
      ['npm', 'run', 'test:unit'],
      ['yarn', 'test'],
      ['go', 'test', './...'],
      ['cargo', 'test'],
      ['npx', 'jest'],
      ['/usr/bin/mocha'],
      ['make', 'check'],
      ['python', '-m', 'unittest'],
    ]) {
      const result = classifyCommandEnd(argv, ended(1, '', 'FAILED tests/test_a.py::test_x - assert 1 == 2\n1 failed, 179 passed'));
      assert.deepEqual([result.kind, result.transient], ['tests_failed', false], argv.join(' '));
    }
    assert.match(
      classifyCommandEnd(['pytest'], ended(1)).diagnosis ?? '',
      /^the tests ran and some failed\. Fix what fails/,
    );
    assert.equal(classifyCommandEnd(['npm', 'run', 'build'], ended(1, 'tsc: error')).kind, 'exit');
  });

  it('a network error, a time-out and a signal are transient', () => {
    for (const stderr of [
      'npm ERR! code ECONNRESET',
      'curl: (6) Could not resolve host: example.com',
      'fatal: unable to access: Failed to connect to github.com port 443',
      'Error: 503 Service Unavailable',
    ]) {
      const result = classifyCommandEnd(['npm', 'install'], ended(1, stderr));
      assert.deepEqual([result.kind, result.transient], ['network', true], stderr);
    }
    assert.deepEqual(classifyCommandEnd(['sleep', '9'], ended(null, '', '', { timedOut: true, signal: 'SIGKILL' })), { kind: 'timed_out', transient: true });
    assert.deepEqual(classifyCommandEnd(['build'], ended(null, '', '', { signal: 'SIGKILL' })), { kind: 'signal', transient: true });
  });

  it('any other exit code is not transient and adds nothing to the exit code and output', () => {
    assert.deepEqual(classifyCommandEnd(['make'], ended(2, 'boom')), {
      kind: 'exit',
      transient: false,
      notRetried: 'the same command line on the same files ends the same way (only a time-out, a signal or a network error is retried).',
    });
    assert.equal(classifyCommandEnd(['pytest'], ended(1)).notRetried, 'the same tests on the same code fail again.');
  });
});

describe('classifyStartFailure', () => {
  it('no such program and not executable are not transient; anything else is unknown', () => {
    const enoent = Object.assign(new Error('Cannot start "mypy": no such program on PATH.'), { code: 'ENOENT' });
    assert.deepEqual(classifyStartFailure(enoent), { kind: 'not_found', transient: false, notRetried: 'another attempt would not find it either.' });
    const eacces = classifyStartFailure(Object.assign(new Error('Cannot start "./x": spawn EACCES'), { code: 'EACCES' }));
    assert.deepEqual([eacces?.kind, eacces?.transient], ['not_executable', false]);
    assert.equal(classifyStartFailure(Object.assign(new Error('spawn EAGAIN'), { code: 'EAGAIN' })), undefined);
    assert.equal(classifyStartFailure(new Error('no code')), undefined);
    assert.equal(classifyStartFailure('text'), undefined);
  });
});
