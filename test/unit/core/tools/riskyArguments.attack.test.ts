import assert from 'node:assert/strict';
import { programName } from '../../../../src/core/tools/commandAllowRules';
import { riskyArgument } from '../../../../src/core/tools/riskyArguments';

describe('riskyArgument: attacks on further arguments (2026-12-06)', () => {
  const asks = (rule: string, further: string[], why: RegExp): void => {
    assert.match(riskyArgument(rule.split(' '), further, programName)?.why ?? '', why, `${rule} ${further.join(' ')}`);
  };
  const allows = (rule: string, further: string[]): void => {
    assert.equal(riskyArgument(rule.split(' '), further, programName), undefined, `${rule} ${further.join(' ')}`);
  };

  // Each ran unasked under the rule and wrote README.md, printed credentials.json or changed the repository (an outside attack, really run).
  it("Node's trace events and V8's logs after npm test --, mocha's --v8-*, pytest-benchmark's files write where they say", () => {
    for (const further of [
      ['--', '--trace-events-enabled', '--trace-event-file-pattern=README.md'],
      ['--', '--prof', '--no-logfile-per-isolate', '--logfile=README.md'],
      ['--', '--log-all'],
      ['--', '--perf-basic-prof'],
      ['--', '--trace-turbo'],
      ['--', '--redirect-code-traces-to=README.md'],
    ]) {
      asks('npm test', further, /writes files/);
    }
    asks('mocha', ['--v8-logfile=README.md'], /writes files/);
    asks('mocha', ['--v8-prof'], /writes files/);
    asks('pytest', ['--benchmark-json=README.md'], /writes files/);
    asks('python -m pytest', ['--benchmark-save=x', '--benchmark-storage=/tmp'], /writes files|runs other code/);
    asks('npm test', ['--', '--experimental-sea-config=sea.json'], /writes files/);
    asks('gradle test', ['--write-locks'], /lock files/);
    asks('go test', ['-mod=mod', './...'], /writes files/);
    allows('go test', ['-mod=vendor', './...']);
    allows('npm test', ['--', '--trace-warnings', '--grep', 'parser']);
    allows('rake test', ['--trace']);
    allows('make test', ['--trace']);
    allows('pytest', ['--benchmark-only', '-q']);
    allows('pytest', ['--log-cli-level=DEBUG']);
  });

  it('jq -f and -L run a program from a file, whose imports the arguments do not show', () => {
    for (const further of [['-n', '-f', 'report.jq'], ['--from-file', 'report.jq'], ['-nf', 'report.jq'], ['-L', 'lib', '.']]) asks('jq', further, /runs a program from a file/);
    allows('jq', ['-r', '.name', 'package.json']);
  });

  it('git branch and git tag make the branch or tag a word names, unless they list; reflog expire/delete, symbolic-ref with a target, fsck --lost-found', () => {
    asks('git branch', ['evil', 'HEAD~2'], /makes a branch/);
    asks('git branch', ['-v', 'x3'], /makes a branch/);
    asks('git branch', ['--sort=refname', 'x8'], /makes a branch/);
    asks('git tag', ['v9.9.9', 'HEAD~2'], /makes a tag/);
    asks('git tag', ['--sort=refname', 'x5'], /makes a tag/);
    asks('git tag', ['--cont', 'HEAD', 'v9'], /makes a tag/);
    asks('git reflog', ['expire', '--expire=now', '--all'], /reflog's entries/);
    asks('git reflog', ['delete', 'HEAD@{1}'], /reflog's entries/);
    asks('git symbolic-ref', ['HEAD', 'refs/heads/evil'], /points to/);
    asks('git symbolic-ref', ['-d', 'HEAD'], /points to/);
    asks('git fsck', ['--lost-found'], /under \.git/);
    allows('git branch', ['--list', 'feat*']);
    allows('git branch', ['--contains', 'HEAD']);
    allows('git branch', ['--show-current']);
    allows('git branch', ['-a']);
    allows('git tag', ['-l', 'v1.*', '--sort=-creatordate']);
    allows('git tag', ['-n5', 'v1.*']);
    allows('git tag', ['--points-at', 'HEAD']);
    allows('git reflog', ['show', '-5']);
    allows('git symbolic-ref', ['--short', 'HEAD']);
    allows('git fsck', ['--no-dangling']);
  });

  it('every option the new entries name asks, saying what it does (each table entry, one by one)', () => {
    const why = (rule: string, further: string[]): string | undefined => riskyArgument(rule.split(' '), further, programName)?.why;
    const every = 'writes files, reads configuration or runs another program';
    for (const option of [
      '--trace-event-file-pattern=README.md', '--trace-events-enabled', '--prof', '--logfile=README.md', '--log-all', '--log-code', '--log-source-code',
      '--log-function-events', '--log-internal-timer-events', '--log-ic', '--log-maps', '--log-maps-details', '--log-deopt', '--perf-basic-prof',
      '--perf-basic-prof-only-functions', '--perf-prof', '--perf-prof-unwinding-info', '--trace-turbo', '--trace-turbo-path=x', '--redirect-code-traces',
      '--redirect-code-traces-to=x', '--experimental-sea-config=sea.json',
    ]) {
      assert.equal(why('node', [option, 'app.js']), every, option);
    }
    assert.equal(why('mocha', ['--v8-logfile=x']), 'loads code, reads configuration or writes files');
    for (const option of ['--benchmark-json=r.json', '--benchmark-save=x', '--benchmark-save-data', '--benchmark-autosave', '--benchmark-storage=x', '--benchmark-histogram=x', '--benchmark-cprofile-dump=x']) {
      assert.equal(why('pytest', [option]), 'loads a plugin, reads other configuration or writes files', option);
    }
    for (const further of [['--from-file', 'x.jq'], ['--library-path=lib', '.'], ['-f', 'x.jq'], ['-L', 'lib', '.']]) {
      assert.equal(why('jq', further), 'runs a program from a file, which can read modules and data files anywhere', further.join(' '));
    }
    for (const option of ['--write-locks', '--update-locks=g:a', '--write-verification-metadata=sha256']) {
      assert.equal(why('gradle test', [option]), 'runs another build script, reads other configuration or rewrites its lock files', option);
    }
    assert.equal(why('go test', ['-mod', 'mod']), 'writes files or runs another program');
    assert.equal(why('git reflog', ['expire']), "deletes the reflog's entries, the way back to lost commits");
    assert.equal(why('git symbolic-ref', ['HEAD', 'refs/heads/x']), 'changes what the reference points to');
    assert.equal(why('git symbolic-ref', ['--delete', 'HEAD']), 'changes what the reference points to');
    assert.equal(why('git fsck', ['--lost-found']), 'writes files under .git');
    // Neighbours: the same words in other places, and options that only start alike.
    for (const [rule, further] of [
      ['git reflog', ['show', 'expired', 'undelete', 'expire-old']],
      ['git symbolic-ref', ['--short', 'HEAD', 'x/refs/y']],
      ['go test', ['-modfile-x', './mod']],
      ['node', ['--trace-warnings', '--loglevel=info', '--profile-x', 'app.js']],
      ['pytest', ['--benchmark-only', '--benchmark-disable']],
      ['jq', ['-r', '-n', '.a']],
      ['gradle test', ['--offline', '--info']],
      ['git fsck', ['--full', '--strict']],
    ] as const) {
      assert.equal(why(rule, [...further]), undefined, `${rule} ${further.join(' ')}`);
    }
  });
});
