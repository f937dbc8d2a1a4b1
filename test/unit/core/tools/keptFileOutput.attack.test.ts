import assert from 'node:assert/strict';
import { argumentLeftToAsk, matchingAllowRule } from '../../../../src/core/tools/commandAllowRules';
import { keptFileOutputStream, withheldFileLines, withheldUrlCredential, withoutKeptFileLines } from '../../../../src/core/tools/keptFileOutput';
import { runCommandTool } from '../../../../src/core/tools/runCommandTool';
import type { CommandResult, CommandRunner, CommandSpec } from '../../../../src/core/commandPorts';
import { withheldPrivateKey } from '../../../../src/core/workspace/credentialFiles';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

// Attacks on "a file tools keep from the model (.env, credentials.json, a key) never reaches it": read_file refuses it and a
// rule-allowed command that names it asks, but a command that names no such file printed one all the same and ran unasked
// under a read-only rule ending in `...`: `git log -p` and `git show` over a committed .env, `git grep '' HEAD`, `diff a b`
// over two folders each holding a .env, `rg '' .` over a credentials.json that is neither hidden nor ignored. Outputs are
// what git 2.x, diff and ripgrep print.
const gitLog = [
  'commit cf9d21db331d8f9e5165b28e1f4e5f4329c23f39',
  'Author: a <a@b>',
  '',
  '    rotate',
  '',
  'diff --git a/.env b/.env',
  'index b3f3126..a73fb4e 100644',
  '--- a/.env',
  '+++ b/.env',
  '@@ -1 +1 @@',
  '-API_TOKEN=s3cr3t-old',
  '+API_TOKEN=s3cr3t-new',
  'diff --git a/README.md b/README.md',
  'index ce01362..94954ab 100644',
  '--- a/README.md',
  '+++ b/README.md',
  '@@ -1 +1,2 @@',
  ' hello',
  '+world',
  '',
  'commit ca7c939a8073268df8eb2f17272c2c306312eaec',
  'Author: a <a@b>',
  '',
  '    init',
  '',
  'diff --git a/cfg/credentials.json b/cfg/credentials.json',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/cfg/credentials.json',
  '@@ -0,0 +1 @@',
  '+{"client_secret":"s3cr3t-json"}',
  '',
].join('\n');

const leaksSecret = (text: string): boolean => text.includes('s3cr3t');

function runnerPrinting(stdout: string): CommandRunner & { ran: number } {
  const runner = {
    ran: 0,
    describeCwd: async (cwd: string) => `/memory-workspace${cwd ? `/${cwd}` : ''}`,
    run: async (): Promise<CommandResult> => {
      runner.ran++;
      return { exitCode: 0, signal: null, stdout, stderr: '', timedOut: false, truncated: false, durationMs: 1 };
    },
  };
  return runner;
}

function allowed(runner: CommandRunner, rules: string[][]) {
  const workspace = createMemoryWorkspace({ 'README.md': 'hello\n', '.env': 'API_TOKEN=s3cr3t-new\n', 'cfg/credentials.json': '{}', a: {}, b: {} } as never);
  return makeToolContext({ workspace, interaction: new ScriptedInteraction({ approvals: [] }), commandRunner: runner, allowedCommands: { rules: () => rules } });
}

describe('attack: a rule-allowed command prints a kept file it does not name', () => {
  it('attack: git log -p over a committed .env and credentials.json runs unasked; what reaches the model leaves their lines out', async () => {
    const runner = runnerPrinting(gitLog);
    const result = await runCommandTool.run(allowed(runner, [['git', 'log', '...']]), { argv: ['git', 'log', '-p'] }, neverAborted);
    assert.equal(runner.ran, 1);
    assert.equal(leaksSecret(result.stdout), false, result.stdout);
    assert.match(result.stdout, /diff --git a\/\.env b\/\.env\n\[the lines of a credentials file: kept from the model\]\ndiff --git a\/README.md/);
    assert.match(result.stdout, / hello\n\+world\n\ncommit ca7c939a/);
  });

  it("attack: rg '' . over a credentials.json, git grep '' HEAD over a committed .env, with context lines, --null and --json", async () => {
    const search = [
      'README.md:hello',
      'cfg/credentials.json:{"client_secret":"s3cr3t-json"}',
      'cfg/credentials.json-12-  "token": "s3cr3t-context"',
      'HEAD:.env:API_TOKEN=s3cr3t-new',
      'cfg/credentials.json\0{"client_secret":"s3cr3t-null"}',
      '{"type":"match","data":{"path":{"text":"cfg/credentials.json"},"lines":{"text":"s3cr3t-json\\n"}}}',
      '\u001b[35mcfg/credentials.json\u001b[0m:\u001b[1ms3cr3t-color\u001b[0m',
      'src/main.ts:export const port = 8443;',
      '',
    ].join('\n');
    const runner = runnerPrinting(search);
    const result = await runCommandTool.run(allowed(runner, [['rg', '...']]), { argv: ['rg', '', '.'] }, neverAborted);
    assert.equal(runner.ran, 1);
    assert.equal(leaksSecret(result.stdout), false, result.stdout);
    assert.deepEqual(result.stdout.split('\n'), [
      'README.md:hello',
      `cfg/credentials.json:${withheldFileLines}`,
      `cfg/credentials.json-${withheldFileLines}`,
      `HEAD:.env:${withheldFileLines}`,
      `cfg/credentials.json\0${withheldFileLines}`,
      `cfg/credentials.json:${withheldFileLines}`,
      'src/main.ts:export const port = 8443;',
      '',
    ]);
  });

  it("attack: rg --heading '' . and git grep --heading print a kept file's name above its lines: they go up to the next blank line", () => {
    const heading = ['README.md', 'hello', '', 'cfg/credentials.json', '{"client_secret":"s3cr3t-json"}', '', 'src/main.ts', 'export const port = 8443;'].join('\n');
    for (const argv of [['rg', '--heading', '', '.'], ['rg', '-p', '', '.'], ['git', 'grep', '--head', '']]) {
      const shown = withoutKeptFileLines(heading, argv);
      assert.equal(leaksSecret(shown), false, `${argv.join(' ')}: ${shown}`);
      assert.equal(shown, ['README.md', 'hello', '', 'cfg/credentials.json', withheldFileLines, '', 'src/main.ts', 'export const port = 8443;'].join('\n'));
    }
    // A list of names (git ls-files, rg --files) is no heading: every name stays.
    assert.equal(withoutKeptFileLines('.env\nREADME.md\nsrc/a.ts', ['git', 'ls-files']), '.env\nREADME.md\nsrc/a.ts');
  });

  it('attack: diff a b over two folders each holding a .env, and git diff with colors', () => {
    const diffs = [
      'diff -u a/.env b/.env',
      '--- a/.env\t2026-12-06 03:35:15 +0000',
      '+++ b/.env\t2026-12-06 03:35:15 +0000',
      '-K=s3cr3t-1',
      '+K=s3cr3t-2',
      'diff a/.env b/.env',
      '1c1',
      '< K=s3cr3t-1',
      '---',
      '> K=s3cr3t-2',
      'Only in a: notes.txt',
      '\u001b[1mdiff --git "a/.env copy" "b/.env copy"\u001b[m',
      '\u001b[31m-K=s3cr3t-3\u001b[m',
    ].join('\n');
    const shown = withoutKeptFileLines(diffs);
    assert.equal(leaksSecret(shown), false, shown);
    assert.match(shown, /Only in a: notes\.txt/);
  });

  it('asks: what would hide which file a line comes from (rg -I, --no-filename, separators; git grep -h; git --src-prefix, --line-prefix)', () => {
    const cases: [string[], string[]][] = [
      [['rg', '...'], ['rg', '-I', '', '.']],
      [['rg', '...'], ['rg', '--no-filename', '', '.']],
      [['rg', '...'], ['rg', '--path-separator=|', '', '.']],
      [['rg', '...'], ['rg', '--field-match-separator=|', '', '.']],
      [['git', 'grep', '...'], ['git', 'grep', '-h', '', 'HEAD']],
      [['git', 'log', '...'], ['git', 'log', '-p', '--src-prefix=q', '--dst-prefix=q']],
      [['git', 'show', '...'], ['git', 'show', '--line-prefix=>', 'HEAD']],
    ];
    const unasked = cases.filter(([rule, argv]) => matchingAllowRule([rule], { argv, cwd: '', shell: false }) !== undefined);
    assert.deepEqual(unasked, []);
    // Each option on its own, saying why.
    const why = (rule: string[], argument: string): string | undefined =>
      argumentLeftToAsk([[...rule, '...']], { argv: [...rule, argument, 'x'], cwd: '', shell: false });
    for (const argument of ['--src-prefix=q', '--dst-prefix=q', '--line-prefix=q']) {
      assert.match(why(['git', 'log'], argument) ?? '', /hides which file each change is in, so the changes of files tools keep from the model \(\.env\) could not be left out/);
    }
    for (const argument of ['-I', '--no-filename', '--path-separator=q', '--field-match-separator=q', '--field-context-separator=q']) {
      assert.match(why(['rg'], argument) ?? '', /hides which file each line comes from, so the lines of files tools keep from the model \(credentials\.json\) could not be left out/);
    }
    assert.match(why(['git', 'grep'], '-h') ?? '', /hides which file each line comes from, so the lines of files tools keep from the model \(a committed \.env\) could not be left out/);
  });

  it('attack: what a failing step streamed (its journal, the screen, a repair plan\'s prompt) held the lines and keys the result left out', async () => {
    // The pieces a pipe gives: a kept file's line cut before its secret, a key cut in its middle, a patch's part across pieces.
    const pieces = [
      'README.md:hello\ncfg/credentials.json:{"client_',
      'secret":"s3cr3t-json"}\nserver.pem:-----BEGIN PRIVATE KEY-----\nserver.pem:MIIEs3cr3t',
      'body\nserver.pem:-----END PRIVATE KEY-----\ndiff --git a/.env b/.env\n+K=s3cr3t-',
      'env\ndiff --git a/x.ts b/x.ts\n+x\ntail without end',
    ];
    const runner = {
      describeCwd: async () => '/memory-workspace',
      run: async (request: CommandSpec): Promise<CommandResult> => {
        for (const piece of pieces) request.onOutput?.(piece);
        return { exitCode: 1, signal: null, stdout: pieces.join(''), stderr: '', timedOut: false, truncated: false, durationMs: 1 };
      },
    };
    const streamed: string[] = [];
    const ctx = { ...allowed(runner, [['rg', '...']]), output: (text: string) => streamed.push(text) };
    await assert.rejects(runCommandTool.run(ctx, { argv: ['rg', '', '.'] }, neverAborted), (error: Error) => !leaksSecret(error.message));
    const shown = streamed.join('');
    assert.equal(leaksSecret(shown), false, shown);
    assert.equal(
      shown,
      [
        'Runs without asking: allowed by the rule "rg ...".',
        'README.md:hello',
        `cfg/credentials.json:${withheldFileLines}`,
        `server.pem:${withheldPrivateKey}`,
        'diff --git a/.env b/.env',
        withheldFileLines,
        'diff --git a/x.ts b/x.ts',
        '+x',
        'tail without end',
      ].join('\n'),
    );
    // Held: a stream that never ends a line gives it back at its end, and nothing before.
    const stream = keptFileOutputStream(['make']);
    assert.equal(stream.write('50%'), '');
    assert.equal(stream.end(), '50%');
  });

  it('attack: git diff of two stored files named by their ids (a committed .env, old and new) names no file; its part goes', () => {
    // As git 2.x prints `git diff a829551 cdf6fac` and the same with the ids whole; the README's part after it stays.
    const diffs = [
      'diff --git a/a829551 b/cdf6fac',
      'index a829551..cdf6fac 100644',
      '--- a/a829551',
      '+++ b/cdf6fac',
      '@@ -1 +1 @@',
      '-API_TOKEN=s3cr3t',
      '+API_TOKEN=s3cr3t2',
      'diff --git a/a829551e476fdd72e53a9aa7e2fe000426aa024c b/cdf6fac40c476ef2c92ddd2582590f4f18e36a5f',
      '-API_TOKEN=s3cr3t',
      'diff --git A829551 CDF6FAC',
      '+API_TOKEN=s3cr3t2',
      'diff --git a/README.md b/README.md',
      '+world',
    ].join('\n');
    const shown = withoutKeptFileLines(diffs, ['git', 'diff', 'a829551', 'cdf6fac']);
    assert.equal(leaksSecret(shown), false, shown);
    assert.match(shown, /diff --git a\/README\.md b\/README\.md\n\+world$/);
    // A file of the workspace whose name is no id keeps its lines, one in a folder named like an id too.
    const plain = 'diff --git a/cafe.txt b/cafe.txt\n+x\ndiff --git a/abcd/notes b/abcd/notes\n+y\ndiff --git a/abc b/abc\n+z';
    assert.equal(withoutKeptFileLines(plain), plain);
  });

  it('asks: what prints a stored file by its id or every file at once (git show <id>, git grep over an id, git cat-file -p, --batch, git archive, fast-export, range-diff, merge-tree)', () => {
    const why = (rule: string[], further: string[]): string | undefined =>
      argumentLeftToAsk([[...rule, '...']], { argv: [...rule, ...further], cwd: '', shell: false });
    const asks: [string[], string[]][] = [
      [['git', 'show'], ['a829551']],
      [['git', 'show'], ['A829551E476FDD72E53A9AA7E2FE000426AA024C']],
      [['git', 'show'], ['--stat', 'a829']],
      [['git', 'show'], ['a829551^{}']],
      [['git', 'cat-file'], ['-p', 'a829551']],
      [['git', 'cat-file'], ['blob', 'a829551']],
      [['git', 'cat-file'], ['--batch']],
      [['git', 'cat-file'], ['--batch=%(objectname)']],
      [['git', 'cat-file'], ['--batch-command']],
      [['git', 'cat-file'], ['--filters', '--path=notes.txt', 'a829551']],
      [['git', 'cat-file'], ['--batch-command', '--buffer']],
      [['git', 'archive'], ['HEAD']],
      [['git', 'archive'], ['--format=tar', 'HEAD']],
      [['git', 'fast-export'], ['--all']],
      [['git', 'range-diff'], ['main~2..main', 'topic~2..topic']],
      [['git', 'merge-tree'], ['a829551', 'main', 'topic']],
      [['git', 'grep'], ['-e', 'API', 'cdf6fac40c476ef2c92ddd2582590f4f18e36a5f']],
      [['git', 'grep'], ['API', 'cdf6fac']],
    ];
    for (const [rule, further] of asks) {
      assert.match(why(rule, further) ?? '', /may print a file git stores without naming it, so the lines of files tools keep from the model \(a committed \.env\) could not be left out/, further.join(' '));
    }
    assert.match(why(['git', 'unpack-file'], ['a829551']) ?? '', /writes a file git stores into the workspace/);
    // What names a commit by a name, or asks git only what an object is, runs as before.
    const runs: [string[], string[]][] = [
      [['git', 'show'], ['HEAD']], [['git', 'show'], ['HEAD~2', '--stat']], [['git', 'show'], ['main']], [['git', 'show'], ['v1.0']],
      [['git', 'show'], ['--format=%an', 'HEAD']], [['git', 'cat-file'], ['-t', 'a829551']], [['git', 'cat-file'], ['-s', 'a829551']],
      [['git', 'cat-file'], ['-e', 'a829551']], [['git', 'cat-file'], ['--batch-check']], [['git', 'cat-file'], ['--batch-check', '--batch-all-objects']],
      // Short options of git show, and names that hold the word blob without being it.
      [['git', 'show'], ['-s', '--oneline', 'HEAD']], [['git', 'show'], ['-m', '--first-parent', 'HEAD']], [['git', 'show'], ['-W', 'HEAD']],
      [['git', 'cat-file'], ['-t', 'blobfish']], [['git', 'cat-file'], ['-t', 'myblob']],
      [['git', 'grep'], ['-e', 'API', 'HEAD']], [['git', 'grep'], ['-n', 'TODO', 'main', '--', 'src']],
    ];
    assert.deepEqual(runs.filter(([rule, further]) => why(rule, further) !== undefined), []);
  });

  it('attack: git log --graph -p draws its graph before each header, git grep over a tree (HEAD:, HEAD:./, HEAD:sub) and its -p function lines (an outside attack)', () => {
    // What git 2.39 prints: the graph's columns before every line, so no line started "diff --git" and the .env's part got through.
    const graphLog = [
      '* commit f5ea38fa5ebf31dc8b42d9daa492e468fe024775',
      '| Author: n <a@b>',
      '| ',
      '|     rotate',
      '| ',
      '| diff --git a/sub/.env b/sub/.env',
      '| index 0000000..8f3e911',
      '| --- /dev/null',
      '| +++ b/sub/.env',
      '| @@ -0,0 +1 @@',
      '| +TOKEN=s3cr3t',
      '| ',
      '* commit 607b659935b1cf7285def64dd9adc45ed1f6172b',
      '  Author: n <a@b>',
      '  ',
      '  diff --git a/README.md b/README.md',
      '  +hi',
    ].join('\n');
    const shown = withoutKeptFileLines(graphLog, ['git', 'log', '--graph', '-p']);
    assert.ok(!leaksSecret(shown), shown);
    assert.match(shown, /\| diff --git a\/sub\/\.env b\/sub\/\.env\n\[the lines of a credentials file: kept from the model\]\n\* commit 607b/);
    assert.match(shown, / {2}diff --git a\/README\.md b\/README\.md\n {2}\+hi$/);
    // A tree's revision ends in a colon of its own, or names a folder, which git prints before the file's own name.
    const grep = ['git', 'grep', '-e', 'TOKEN', 'HEAD:'];
    for (const line of ['HEAD::.env:TOKEN=s3cr3t', 'HEAD:./:.env:TOKEN=s3cr3t', 'HEAD:sub:.env:TOKEN=s3cr3t', 'HEAD~0::sub/.env:TOKEN=s3cr3t']) {
      assert.ok(!leaksSecret(withoutKeptFileLines(line, grep)), line);
    }
    // `-p` and `-W` print the line that heads a match's function after `=` (in a .env, the line before the match).
    const functionLines = withoutKeptFileLines('.env=API_KEY=s3cr3t\n.env:DB_PASS=s3cr3t\nHEAD:.env=API_KEY=s3cr3t', ['git', 'grep', '-p', '-e', 'DB_PASS']);
    assert.ok(!leaksSecret(functionLines), functionLines);
    // Controls: the same lines of an ordinary file stay, and a line after three fields stays for other searches.
    assert.equal(withoutKeptFileLines('HEAD:sub:README.md:TOKEN=x\nsrc/a.js=function a()', grep), 'HEAD:sub:README.md:TOKEN=x\nsrc/a.js=function a()');
    assert.equal(withoutKeptFileLines('a:b:.env:x', ['rg', 'x']), 'a:b:.env:x');
    assert.equal(withoutKeptFileLines('| +TOKEN=x', ['git', 'log', '-p']), '| +TOKEN=x');
  });

  it('keeps what names a kept file without its lines: a log --stat, ls-files, status, a search of other files, .env.example', () => {
    const plain = [
      ' .env      | 2 +-',
      ' README.md | 1 +',
      '.env',
      'cfg/credentials.json',
      '?? .env.local',
      '.env.example:API_TOKEN=',
      'docs/setup.md:Copy .env.example to .env: the app reads it',
      'diff --git a/.env.example b/.env.example',
      '+API_TOKEN=',
      'Binary files a/logo.png and b/logo.png differ',
    ].join('\n');
    assert.equal(withoutKeptFileLines(plain), plain);
    assert.equal(withoutKeptFileLines(''), '');
  });

  it('held: a part of a patch ends at the next file or commit; what comes after it is kept (a control)', () => {
    const text = 'diff --git a/.env b/.env\n+S=s3cr3t\ncommit 0123456789abcdef\n    next\ndiff --git a/x.ts b/x.ts\n+x';
    assert.equal(withoutKeptFileLines(text), `diff --git a/.env b/.env\n${withheldFileLines}\ncommit 0123456789abcdef\n    next\ndiff --git a/x.ts b/x.ts\n+x`);
  });
});

describe("attack: a rule-allowed command prints a remote's URL with its token", () => {
  it('attack: git remote -v runs unasked and printed the token git was given in the URL; what reaches the model and the step leaves it out', async () => {
    const printed = [
      'origin\thttps://x-access-token:ghs_s3cr3tTokenValue0123456789@github.com/acme/app.git (fetch)',
      'fork\thttps://ghp_s3cr3t0123456789abcdefABCDEF@github.com/me/app.git (push)',
      'mirror\thttps://deploy:s3cr3t%2Fpw@git.example.com/app.git (fetch)',
      '',
    ].join('\n');
    const runner = {
      describeCwd: async () => '/memory-workspace',
      run: async (request: CommandSpec): Promise<CommandResult> => {
        request.onOutput?.(printed);
        return { exitCode: 0, signal: null, stdout: printed, stderr: '', timedOut: false, truncated: false, durationMs: 1 };
      },
    };
    const streamed: string[] = [];
    const ctx = { ...allowed(runner, [['git', 'remote', '-v']]), output: (text: string) => streamed.push(text) };
    const result = await runCommandTool.run(ctx, { argv: ['git', 'remote', '-v'] }, neverAborted);
    for (const text of [result.stdout, streamed.join('')]) assert.equal(leaksSecret(text), false, text);
    assert.deepEqual(result.stdout.split('\n'), [
      `origin\thttps://x-access-token:${withheldUrlCredential}@github.com/acme/app.git (fetch)`,
      `fork\thttps://${withheldUrlCredential}@github.com/me/app.git (push)`,
      `mirror\thttps://deploy:${withheldUrlCredential}@git.example.com/app.git (fetch)`,
      '',
    ]);
  });

  it('keeps URLs without credentials: a user name, ssh remotes, a port, an @ in the path', () => {
    const plain = [
      'origin\tgit@github.com:acme/app.git (fetch)',
      'ssh://git@example.com:2222/app.git',
      'https://deploy@example.com/app.git',
      'http://localhost:4873/@types/node',
      'https://registry.npmjs.org/@scope%2fpkg',
      'https://abcdefghijklmnopqrst@example.com/',
      'https://1234567890123456789@example.com/',
    ].join('\n');
    assert.equal(withoutKeptFileLines(plain), plain);
    assert.equal(withoutKeptFileLines('https://u:p@h/'), 'https://u:[kept from the model]@h/');
  });
});

describe('withoutKeptFileLines and keptFileOutputStream at their edges', () => {
  it('reads headings only where the program prints them: rg --heading, --pretty, -p, -np; git grep --heading and --head; nothing else', () => {
    const heading = 'cfg/credentials.json\ns3cr3t\n\nREADME.md\nhello';
    const cut = `cfg/credentials.json\n${withheldFileLines}\n\nREADME.md\nhello`;
    for (const argv of [['rg', '--heading', 'x'], ['rg', '--pretty', 'x'], ['rg', '-p', 'x'], ['rg', '-np', 'x'], ['/usr/bin/rg', '--heading'], ['git', 'grep', '--heading'], ['git', 'grep', '--head'], ['git', 'grep', '--hea']]) {
      assert.equal(withoutKeptFileLines(heading, argv), cut, argv.join(' '));
    }
    for (const argv of [['git', 'ls-files'], ['rg', '--files'], ['rg', 'x', '-e', 'p'], ['rg', 'x-p'], ['git', 'grep', '--he'], ['git', 'log', '--heading'], ['grep', '--heading'], ['tool', 'grep', '--heading'], []]) {
      assert.equal(withoutKeptFileLines(heading, argv), heading, argv.join(' '));
    }
  });

  it('a part of a patch starts only at a line starting "diff", names in quotes or after options count, and ends only at a line starting the next', () => {
    assert.equal(withoutKeptFileLines(' diff --git a/.env b/.env\n+x'), ' diff --git a/.env b/.env\n+x');
    assert.equal(withoutKeptFileLines('diff -u "a/.env" b/x\n+s3cr3t'), `diff -u "a/.env" b/x\n${withheldFileLines}`);
    assert.equal(withoutKeptFileLines('diff -u a/x "b/.env"\n+s3cr3t'), `diff -u a/x "b/.env"\n${withheldFileLines}`);
    assert.equal(withoutKeptFileLines('diff --cc .npmrc\n+s3cr3t'), `diff --cc .npmrc\n${withheldFileLines}`);
    assert.equal(withoutKeptFileLines('diff -N a b\n+x'), 'diff -N a b\n+x');
    // `--id_rsa` is an option, not the file.
    assert.equal(withoutKeptFileLines('diff --exclude=.env a b\n+x'), 'diff --exclude=.env a b\n+x');
    const part = ['diff --git a/.env b/.env', '+fixed in commit 0123456', ' see diff above', 'commit 12', 'Only in', '+s3cr3t'].join('\n');
    assert.equal(withoutKeptFileLines(`${part}\nOnly in a: x\n+y`), `diff --git a/.env b/.env\n${withheldFileLines}\nOnly in a: x\n+y`);
    assert.equal(withoutKeptFileLines(`${part}\nCommon subdirectories: a and b`), `diff --git a/.env b/.env\n${withheldFileLines}\nCommon subdirectories: a and b`);
  });

  it('judges names through terminal escapes: colors and hyperlinks (OSC 8 ended by BEL or ST)', () => {
    const link = (name: string, end: string) => `\u001b]8;;file:///w/${name}${end}${name}\u001b]8;;${end}:s3cr3t`;
    for (const end of ['\u0007', '\u001b\\']) assert.equal(leaksSecret(withoutKeptFileLines(link('credentials.json', end))), false);
    assert.equal(withoutKeptFileLines(link('README.md', '\u0007')), link('README.md', '\u0007'));
  });

  it('a search line: its name before the first colon or NUL, or a dash ahead of them; after a revision; one note for a run of lines', () => {
    assert.equal(withoutKeptFileLines('.env:A=s3cr3t\n.env:B=s3cr3t\nREADME.md:x\n.env:C=s3cr3t'), `.env:${withheldFileLines}\nREADME.md:x\n.env:${withheldFileLines}`);
    assert.equal(withoutKeptFileLines('.env-3-A=s3cr3t'), `.env-${withheldFileLines}`);
    assert.equal(withoutKeptFileLines('v1.0:.env:A=s3cr3t'), `v1.0:.env:${withheldFileLines}`);
    assert.equal(withoutKeptFileLines('v1.0\0.env\0A=s3cr3t'), `v1.0\0.env\0${withheldFileLines}`);
    // Not a name: a kept name after the second colon, or text with spaces before a colon.
    for (const plain of ['a:b:.env:x', 'note: .env: x', 'README.md-x:y', 'x:y', 'no separator .env']) assert.equal(withoutKeptFileLines(plain), plain);
    assert.equal(withoutKeptFileLines('README.md:x\n.env copy:s3cr3t'), `README.md:x\n.env copy:${withheldFileLines}`);
    assert.equal(withoutKeptFileLines('my dir/.env:s3cr3t\n.kube/config:s3cr3t'), `my dir/.env:${withheldFileLines}\n.kube/config:${withheldFileLines}`);
    assert.equal(withoutKeptFileLines('{"type":"match","data":{"path":{"text":".ssh\\/id_x"}}}'), '');
    assert.equal(withoutKeptFileLines('{"type":"match","data":{"path":{"text":"a\\\\.env"}}}'), '');
    assert.equal(withoutKeptFileLines('{"type":"match","data":{"path":{"text":"a.md"}}}'), '{"type":"match","data":{"path":{"text":"a.md"}}}');
  });

  it('a stream: lines given back whole, a key cut anywhere (PEM of any type, PGP, PuTTY up to its MAC), a key on one line, an empty line', () => {
    const through = (pieces: string[]): string => {
      const stream = keptFileOutputStream([]);
      return pieces.map((piece) => stream.write(piece)).join('') + stream.end();
    };
    assert.equal(through(['a', 'b\nc', '\n', '\n', 'd']), 'ab\nc\n\nd');
    assert.equal(through(['x\n-----BEGIN RSA PRIVATE KEY-----\nMII', 's3cr3t\n-----END RSA PRIVATE KEY-----\ny\n']), `x\n${withheldPrivateKey}\ny\n`);
    assert.equal(through(['-----BEGIN PGP PRIVATE KEY BLOCK-----\ns3cr3t\n-----END PGP PRIVATE KEY BLOCK-----\ny']), `${withheldPrivateKey}\ny`);
    assert.equal(through(['PuTTY-User-Key-File-3: ssh-ed25519\ns3cr3t\nPrivate-MAC: 0a1b\ny']), `${withheldPrivateKey}\ny`);
    assert.equal(through(['\n']), '\n');
    assert.equal(through(['{"type":"match","data":{"path":{"text":".env"}}}\n', 'x']), 'x');
    assert.equal(through(['k: "-----BEGIN PRIVATE KEY-----\\ns3cr3t\\n-----END PRIVATE KEY-----"\ny\n']), `k: "${withheldPrivateKey}"\ny\n`);
    assert.equal(through(['.env:s3cr3t\n']), `.env:${withheldFileLines}\n`);
    assert.equal(through(['.env:s3cr3t\n.env:s3cr3t\n']), `.env:${withheldFileLines}\n`);
  });

  it('a stream: a progress bar\'s "\\r" ends a line too (its updates show as they come, one behind), CRLF stays CRLF, a kept line goes with its break', () => {
    const stream = keptFileOutputStream([]);
    assert.equal(stream.write('10%\r'), '', 'a "\\n" may follow it in the next piece');
    assert.equal(stream.write('20%\r'), '10%\r');
    assert.equal(stream.write('30%\r'), '20%\r');
    assert.equal(stream.write('\ndone\r\n'), '30%\r\ndone\r\n');
    assert.equal(stream.end(), '');
    const crlf = keptFileOutputStream([]);
    assert.equal(crlf.write('a\r'), '');
    assert.equal(crlf.write('\n.env:s3cr3t\r\nb\r\n') + crlf.end(), `a\r\n.env:${withheldFileLines}\r\nb\r\n`);
    const dropped = keptFileOutputStream([]);
    assert.equal(dropped.write('{"type":"match","data":{"path":{"text":".env"}}}\r\nx\n'), 'x\n', 'no break is left where the kept line was');
  });
});
