import assert from 'node:assert/strict';
import { matchingAllowRule } from '../../../../src/core/tools/commandAllowRules';

// Attacks on docs/security.md §4.2: options after a rule ending in `...` that write files, read files outside the workspace
// or run another program, not yet covered elsewhere. Each must ask (no rule allows it); all held when tried.
const unasked = (cases: readonly [rule: string, argv: readonly string[]][]): string[] =>
  cases.filter(([rule, argv]) => matchingAllowRule([rule.split(' ')], { argv: [...argv], cwd: '', shell: false }) !== undefined).map(([rule, argv]) => `${rule}  =>  ${argv.join(' ')}`);

describe('attack: further arguments that run, write or read outside (held)', () => {
  it('attack: tar listing a file runs no program and extracts nothing: --to-command, --checkpoint-action, -I, --info-script, -x', () => {
    assert.deepEqual(
      unasked([
        ['tar -tf ...', ['tar', '-tf', 'x.tar', '--to-command=sh']],
        ['tar -tf ...', ['tar', '-tf', 'x.tar', '--checkpoint-action=exec=sh']],
        ['tar -tf ...', ['tar', '-tf', 'x.tar', '-I', 'sh']],
        ['tar -tf ...', ['tar', '-tf', 'x.tar', '--use-compress-program=sh']],
        ['tar -tf ...', ['tar', '-tf', 'x.tar', '--info-script=sh']],
        ['tar -tf ...', ['tar', '-tf', 'x.tar', '-x']],
      ]),
      [],
    );
  });

  it('attack: git read-only subcommands run no program and write no file: grep -O, ls-remote --upload-pack, archive --exec/-o, blame --contents /etc/passwd', () => {
    assert.deepEqual(
      unasked([
        ['git grep ...', ['git', 'grep', '-Osh', 'foo']],
        ['git ls-remote ...', ['git', 'ls-remote', '--upload-pack=sh', 'origin']],
        ['git ls-remote ...', ['git', 'ls-remote', 'ext::sh -c touch% x']],
        ['git archive ...', ['git', 'archive', '--remote=x', '--exec=sh', 'HEAD']],
        ['git archive ...', ['git', 'archive', '-o', 'README.md', 'HEAD']],
        ['git blame ...', ['git', 'blame', '--contents', '/etc/passwd', 'x']],
        ['git diff ...', ['git', 'diff', '--no-index', '/etc/passwd', 'x']],
        ['git log ...', ['git', 'log', '--exec-path=/tmp']],
      ]),
      [],
    );
  });

  it('attack: a search under a read-only rule prints no file tools keep from the model: grep -r/-R/-d recurse over a folder, git grep --untracked', () => {
    assert.deepEqual(
      unasked([
        ['grep ...', ['grep', '-r', 'KEY', '.']],
        ['grep ...', ['grep', '-rn', '', 'config']],
        ['grep ...', ['grep', '-R', 'ssh-rsa', 'vendor']],
        ['grep ...', ['grep', '--directories=recurse', 'KEY', '.']],
        ['grep -n ...', ['grep', '-n', '-d', 'recurse', 'KEY', '.']],
        ['git grep ...', ['git', 'grep', '--untracked', 'KEY']],
        ['git grep ...', ['git', 'grep', '--untracked', '--no-exclude-standard', 'KEY']],
      ]),
      [],
    );
  });

  it('attack: find, sed, sort and jq under a read-only rule write nothing and read nothing outside: -fprint, w commands, -o, --rawfile /etc/passwd', () => {
    assert.deepEqual(
      unasked([
        ['find . ...', ['find', '.', '-fprint', 'out']],
        ['find . ...', ['find', '.', '-fls', 'out']],
        ['find . ...', ['find', '.', '-execdir', 'sh', '-c', 'x', ';']],
        ['sed -n ...', ['sed', '-n', '1w/tmp/x', 'file']],
        ['sed -n ...', ['sed', '-n', '1e touch x', 'file']],
        ['sort ...', ['sort', '-T', '/tmp', 'x']],
        ['jq ...', ['jq', '--rawfile', 'x', '/etc/passwd', '.']],
        ['jq ...', ['jq', '-L', '/tmp', '.']],
        ['wc ...', ['wc', '--files0-from=/etc/x']],
      ]),
      [],
    );
  });

  it('attack: test runners load no code and write no report through their options: pytest -p/--basetemp, go vet -vettool, make CC=, bun --preload, node --test --import', () => {
    assert.deepEqual(
      unasked([
        ['pytest ...', ['pytest', '-pevil']],
        ['pytest ...', ['pytest', '--basetemp=/home']],
        ['pytest ...', ['pytest', '-o', 'addopts=-pevil']],
        ['go vet ...', ['go', 'vet', '-vettool=./evil']],
        ['go test ...', ['go', 'test', '-exec', 'sh', './...']],
        ['make test ...', ['make', 'test', 'CC=sh']],
        ['make test ...', ['make', 'test', '--eval=x']],
        ['bun test ...', ['bun', 'test', '--preload', './evil.ts']],
        ['node --test ...', ['node', '--test', '--import', './evil.js']],
        ['node --test ...', ['node', '--test', '--test-reporter-destination', 'README.md']],
        ['npm test ...', ['npm', 'test', '--', '--redirect-warnings=README.md']],
        ['npm test ...', ['npm', 'test', '--', '--inspect=0.0.0.0:9229']],
        ['deno test ...', ['deno', 'test', '--allow-run']],
        ['mvn test ...', ['mvn', 'test', '-Dexec.executable=sh']],
        ['gradle test ...', ['gradle', 'test', '--init-script', 'x']],
      ]),
      [],
    );
  });
});
