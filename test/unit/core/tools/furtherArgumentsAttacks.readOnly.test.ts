import assert from 'node:assert/strict';
import { pathArgumentNotCovered } from '../../../../src/core/tools/argumentPaths';
import { matchingAllowRule, programName } from '../../../../src/core/tools/commandAllowRules';
import { riskyArgument } from '../../../../src/core/tools/riskyArguments';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { neverAborted } from '../../../fakes/toolContext';

// Attacks on the promise of a rule ending in `...` for a read-only program (rg, grep, git log, diff, less, jq…): no further
// argument writes a file, runs another program, reads a file outside the workspace or prints one tools keep from the model.
// Each of these broke when tried (the command ran unasked); the last block holds the common harmless commands that must not ask.
type Case = readonly [rule: string, argv: readonly string[]];
const unasked = (cases: readonly Case[]): string[] =>
  cases.filter(([rule, argv]) => matchingAllowRule([rule.split(' ')], { argv: [...argv], cwd: '', shell: false }) !== undefined).map(([rule, argv]) => `${rule}  =>  ${argv.join(' ')}`);

// A workspace with the files tools keep from the model, and the rule's path check over each command's arguments.
const workspace = createMemoryWorkspace({ '.env': 'API_KEY=sk-live-1234\n', 'secrets.env': 's', 'src/.ssh/id_rsa': 'k', 'src/a.ts': 'a', 'file.ts': 'f' });
const printedUnasked = async (cases: readonly Case[]): Promise<string[]> => {
  const printed: string[] = [];
  for (const [rule, argv] of cases) {
    const allowed = matchingAllowRule([rule.split(' ')], { argv: [...argv], cwd: '', shell: false }) !== undefined;
    if (allowed && (await pathArgumentNotCovered(workspace, '', argv.slice(1), neverAborted)) === undefined) printed.push(`${rule}  =>  ${argv.join(' ')}`);
  }
  return printed;
};

describe('attack: further arguments to a read-only program (broke)', () => {
  it('attack: ripgrep follows no link out of the workspace, runs no decompression program and reads no hidden file through a cluster: -L, --follow, -z, -n.', () => {
    assert.deepEqual(
      unasked([
        ['rg ...', ['rg', '-L', 'KEY']],
        ['rg ...', ['rg', '--follow', 'KEY', '.']],
        ['rg ...', ['rg', '-z', 'KEY']],
        ['rg ...', ['rg', '--search-zip', 'KEY']],
        ['rg ...', ['rg', '-n.', 'KEY']],
        ['rg -n ...', ['rg', '-n', '-i.', 'KEY']],
      ]),
      [],
    );
  });

  it('attack: diff of two folders prints no file of theirs whole: -r, --recursive, -N, --new-file, -P (diff -N empty . printed .env)', () => {
    assert.deepEqual(
      unasked([
        ['diff ...', ['diff', '-N', 'empty', '.']],
        ['diff ...', ['diff', '-rN', 'empty', '.']],
        ['diff ...', ['diff', '--new-file', 'empty', '.']],
        ['diff ...', ['diff', '-P', 'empty', '.']],
        ['diff ...', ['diff', '--unidirectional-new-file', 'empty', '.']],
        ['diff -u ...', ['diff', '-u', '-r', 'src', '.']],
        ['diff ...', ['diff', '--recursive', 'src', '.']],
      ]),
      [],
    );
  });

  it('attack: less, tree and file write nothing and read no other list or configuration: less -Ox, --log-file, -k; tree -R; file -f', () => {
    assert.deepEqual(
      unasked([
        ['less ...', ['less', '-Ocopy.txt', 'file.ts']],
        ['less ...', ['less', '--log-file=copy.txt', 'file.ts']],
        ['less ...', ['less', '--LOG-FILE=copy.txt', 'file.ts']],
        ['less ...', ['less', '-k', 'keys', 'file.ts']],
        ['less ...', ['less', '--lesskey-src=keys', 'file.ts']],
        ['tree ...', ['tree', '-R', '-L', '2', '-H', '.']],
        ['file ...', ['file', '-f', 'names.txt']],
      ]),
      [],
    );
  });

  it('attack: jq and yq expressions read no file from anywhere: import with a search path, include, modulemeta, load()', () => {
    assert.deepEqual(
      unasked([
        ['jq ...', ['jq', '-n', 'import "application_default_credentials" as $c {search: "~/.config/gcloud"}; $c']],
        ['jq ...', ['jq', '-n', 'import "creds" as $c {search:"../outside"}; $c']],
        ['jq -n ...', ['jq', '-n', 'include "x"; .']],
        ['jq ...', ['jq', '-n', '"x" | modulemeta']],
        ['yq ...', ['yq', '-n', 'load("/etc/passwd")']],
        ['yq ...', ['yq', '-n', 'load_str(".env")']],
        ['yq ...', ['yq', '-s', '"out"', '.', 'x.yaml']],
        ['yq ...', ['yq', '--split-exp', '"out"', '.', 'x.yaml']],
      ]),
      [],
    );
  });

  it('attack: a short option cluster with digits names no path outside: grep -1f/tmp/x is -1 -f /tmp/x', () => {
    assert.deepEqual(
      unasked([
        ['grep ...', ['grep', '-1f/tmp/x', 'file.ts']],
        ['grep ...', ['grep', '-n5f/tmp/x', 'file.ts']],
      ]),
      [],
    );
  });

  it('attack: a kept file glued to a short option, or spelled as Windows opens it, is looked at: -f.env, -nf.env, -X.env, -L:main:.env, ".env ", .env::$DATA', async () => {
    assert.deepEqual(
      await printedUnasked([
        ['grep ...', ['grep', '-f.env', 'file.ts']],
        ['grep ...', ['grep', '-nf.env', 'file.ts']],
        ['rg ...', ['rg', '-fsecrets.env', 'src']],
        ['git grep ...', ['git', 'grep', '-f.env']],
        ['git ls-files ...', ['git', 'ls-files', '-X.env']],
        ['git log ...', ['git', 'log', '-L:API_KEY:.env']],
        ['diff ...', ['diff', '-X.env', 'a', 'b']],
        // Past the letters looked after at each end of a long cluster, a kept name still ends as its own ending does.
        ['head ...', ['head', `-${'n'.repeat(150)}fsecret-key.pem`, 'file.ts']],
        ['cat ...', ['cat', '.env ']],
        ['cat ...', ['cat', 'src/.ssh /id_rsa']],
        ['cat ...', ['cat', '.env::$DATA']],
      ]),
      [],
    );
  });
});

describe('further arguments to a read-only program: the common harmless ones run unasked', () => {
  it('grep, ripgrep, git grep and git ls-files take -o for their own (only what matched, untracked files), while it still asks elsewhere', async () => {
    const harmless: Case[] = [
      ['grep ...', ['grep', '-o', 'foo', 'file.ts']],
      ['grep ...', ['grep', '-on', 'foo', 'file.ts']],
      ['rg ...', ['rg', '-o', 'foo']],
      ['git grep ...', ['git', 'grep', '-o', 'foo']],
      ['git ls-files ...', ['git', 'ls-files', '-o', '--exclude-standard']],
    ];
    assert.deepEqual(await printedUnasked(harmless), harmless.map(([rule, argv]) => `${rule}  =>  ${argv.join(' ')}`));
    // Only the program's own name or subcommand gives the letter, never another word of the rule.
    assert.deepEqual(
      unasked([
        ['sort ...', ['sort', '-o', 'x', 'file.ts']],
        ['git log ...', ['git', 'log', '-o', 'x']],
        ['npm run grep ...', ['npm', 'run', 'grep', '-o', 'x']],
        ['tree ...', ['tree', '-o', 'x']],
      ]),
      [],
    );
  });

  it('the usual read-only commands, paths and patterns run unasked', async () => {
    const harmless: Case[] = [
      ['git log ...', ['git', 'log', '--oneline', '-n', '5']],
      ['git log ...', ['git', 'log', '--oneline', '-n5']],
      ['git log ...', ['git', 'log', '--format=%h %s', '-n', '3']],
      ['git diff ...', ['git', 'diff', '--stat', 'HEAD~1']],
      ['git diff ...', ['git', 'diff', '-U0', 'HEAD~1', '--', 'src']],
      ['git show ...', ['git', 'show', 'HEAD:src/a.ts']],
      ['git blame ...', ['git', 'blame', '-L', '10,20', 'src/a.ts']],
      ['rg ...', ['rg', '-n', 'TODO', 'src']],
      ['rg ...', ['rg', '-g', '*.ts', '-C', '3', 'foo']],
      ['rg ...', ['rg', 'load .env', 'src']],
      ['grep ...', ['grep', '-n', 'foo', 'file.ts']],
      ['diff ...', ['diff', '-u', 'file.ts', 'src/a.ts']],
      ['less ...', ['less', '-N', 'file.ts']],
      ['tree ...', ['tree', '-L', '2', 'src']],
      ['jq ...', ['jq', '-r', '.include.import', 'package.json']],
      ['yq ...', ['yq', '.a', 'x.yaml']],
      ['file ...', ['file', 'src/a.ts']],
    ];
    assert.deepEqual(await printedUnasked(harmless), harmless.map(([rule, argv]) => `${rule}  =>  ${argv.join(' ')}`));
  });

  it('each new table entry says what it does', () => {
    const why = (rule: string, argument: string) => riskyArgument(rule.split(' '), [argument], programName)?.why;
    assert.equal(why('rg', '-L'), 'runs decompression programs, or follows links out of the workspace');
    assert.equal(why('diff', '-N'), 'prints every file of a folder, the ones tools keep from the model (.env) too');
    assert.equal(why('less', '-O'), 'writes files or reads other configuration');
    assert.equal(why('less', '+!id'), 'runs another program');
    assert.equal(why('file', '-f'), 'reads the names of the files to look at from a file');
    assert.equal(why('yq', 'load("x")'), 'writes files, or reads files anywhere');
    assert.equal(why('jq', 'import "x" as $x; $x'), 'reads modules and data files anywhere');
    assert.equal(why('tree', '-R'), 'writes files');
  });
});
