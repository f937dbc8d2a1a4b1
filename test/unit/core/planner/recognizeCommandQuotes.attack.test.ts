import assert from 'node:assert/strict';
import fc from 'fast-check';
import { recognizeCommand } from '../../../../src/core/planner/recognizeCommand';
import { shownCommand } from '../../../../src/core/tools/commandApprovalText';

// Promise under attack: the argument vector that runs (and that the approval and the allow rules judge) is exactly the
// command the words wrote, read as a shell reads its words (tokenize says it honours quotes as a shell does), or the text
// is no command at all. Quoted text is never split into a second program run.

/** A POSIX shell's words of `line` (quotes, backslashes, words joined across quotes), `&&` outside quotes splitting commands; `undefined` for syntax this subset does not read. */
function shellCommands(line: string): string[][] | undefined {
  const commands: string[][] = [[]];
  let word: string | undefined;
  let index = 0;
  const end = (): void => {
    if (word !== undefined) commands.at(-1)!.push(word);
    word = undefined;
  };
  while (index < line.length) {
    const char = line[index]!;
    if (char === ' ' || char === '\t') {
      end();
      index++;
    } else if (char === '&' && line[index + 1] === '&' && word === undefined) {
      commands.push([]);
      index += 2;
    } else if (char === "'") {
      const close = line.indexOf("'", index + 1);
      if (close < 0) return undefined;
      word = (word ?? '') + line.slice(index + 1, close);
      index = close + 1;
    } else if (char === '"') {
      let text = '';
      index++;
      for (;;) {
        if (index >= line.length) return undefined;
        const inner = line[index]!;
        if (inner === '"') break;
        if (inner === '\\' && index + 1 < line.length && '$`"\\\n'.includes(line[index + 1]!)) {
          text += line[index + 1];
          index += 2;
          continue;
        }
        text += inner;
        index++;
      }
      word = (word ?? '') + text;
      index++;
    } else if (char === '\\') {
      if (index + 1 >= line.length) return undefined;
      word = (word ?? '') + line[index + 1];
      index += 2;
    } else if (/[|;<>&$`()]/.test(char)) {
      return undefined;
    } else {
      word = (word ?? '') + char;
      index++;
    }
  }
  end();
  return commands.every((command) => command.length > 0) ? commands : undefined;
}

const argvs = (line: string): string[][] | undefined => recognizeCommand(line)?.calls.map((call) => call.args['argv'] as string[]);

describe('attack: recognizeCommand reads a command line\'s words as a shell does, or makes no command of it', () => {
  it('attack: "&&" inside double quotes is text of the argument, never a second command (it ran `rm -rf build "`)', () => {
    const got = argvs('Run `echo "done && rm -rf build "`');
    assert.ok(got === undefined || got.length === 1, `quoted text became commands: ${JSON.stringify(got?.map(shownCommand))}`);
    if (got) assert.deepEqual(got, [['echo', 'done && rm -rf build ']]);
  });

  it('attack: a commit message with "&&" in quotes is one argument of git', () => {
    const got = argvs('Run `git commit -m "fix && polish"`');
    assert.ok(got === undefined || JSON.stringify(got) === JSON.stringify([['git', 'commit', '-m', 'fix && polish']]), JSON.stringify(got));
  });

  const cases: [string, string[]][] = [
    ['Run `npm run build -- --name="x y"`', ['npm', 'run', 'build', '--', '--name=x y']],
    ['Run `echo "a"b`', ['echo', 'ab']],
    ['Run `echo a\\ b`', ['echo', 'a b']],
    ["Run `echo 'it''s'`", ['echo', 'its']],
    ['Run `node -e "console.log(\\"a\\nb\\")"`', ['node', '-e', 'console.log("a\\nb")']],
    ['Run `git commit -m "a\\nb"`', ['git', 'commit', '-m', 'a\\nb']],
  ];
  for (const [line, argv] of cases) {
    it(`attack: ${line} runs ${JSON.stringify(argv)} or is no command`, () => {
      const got = argvs(line);
      assert.ok(got === undefined || JSON.stringify(got) === JSON.stringify([argv]), `ran ${JSON.stringify(got)}; approval showed ${got?.map(shownCommand).join(' | ')}`);
    });
  }

  it('attack: an unclosed quote is no command (a shell would wait for its end)', () => {
    const got = argvs('Run `npm test "`');
    assert.equal(got, undefined, JSON.stringify(got));
  });

  it('attack: a trailing backslash is no command (a shell would read the next line into it)', () => {
    for (const line of ['Run `npm test \\`', 'run npm test \\', 'Run `npm test "a\\`']) assert.equal(argvs(line), undefined, line);
  });

  it('attack: syntax a shell reads but no call runs (a comment, an expansion, an operator touching a word, a variable before the program) is no command', () => {
    for (const line of [
      'Run `echo done # && rm -rf build`',
      'Run `echo $HOME`',
      'Run `echo "$(rm -rf build)"`',
      'run npm test;rm -rf build',
      'Run `npm test&&rm -rf build`',
      'Run `npm test &&rm -rf build`',
      'Run `npm test|tee log`',
      'Run `CI=1 npm test`',
    ]) {
      assert.equal(argvs(line), undefined, `${line} ran ${JSON.stringify(argvs(line))}`);
    }
    // Quoted or escaped, the same characters are text.
    assert.deepEqual(argvs("Run `echo '$HOME' \\$PATH '#1' \"a;b|c\"`"), [['echo', '$HOME', '$PATH', '#1', 'a;b|c']]);
    assert.deepEqual(argvs('Run `npm test "CI=1"`'), [['npm', 'test', 'CI=1']]);
  });

  it('attack: each backticked command is read alone: a quote opened in one never takes in the next', () => {
    assert.equal(argvs('Run `echo "a` and `b"`'), undefined);
    assert.deepEqual(argvs('Run `echo "a && b"` and `git status`'), [['echo', 'a && b'], ['git', 'status']]);
  });

  it('attack: a plain command line (no backticks) reads quotes as a shell does, and "&&" in them is text', () => {
    assert.deepEqual(argvs('run npm test -- --grep "a && b"'), [['npm', 'test', '--', '--grep', 'a && b']]);
    assert.deepEqual(argvs('run pytest -k "slow"fast --name=\'x y\''), [['pytest', '-k', 'slowfast', '--name=x y']]);
    assert.deepEqual(argvs('run git pull && npm test'), [['git', 'pull'], ['npm', 'test']]);
  });

  it('attack: without a run verb, every command of a backticked line must be a known program ("`rm -rf build`" alone is none)', () => {
    assert.equal(argvs('`npm test && rm -rf build`'), undefined);
    assert.deepEqual(argvs('`npm ci && npm test`'), [['npm', 'ci'], ['npm', 'test']]);
  });

  it('attack: "run mypy on it" passes each path of the step before as one argument, spaces and all', () => {
    const got = recognizeCommand('run mypy on it', { referentPaths: ['my app/main.py', 'a\\b.py'] })?.calls.map((call) => call.args['argv']);
    assert.deepEqual(got, [['mypy', 'my app/main.py', 'a\\b.py']]);
  });

  it('attack: a command holding an invisible character is shown with it visible in its question', () => {
    for (const hidden of ['\u0000', '\u200b', '\u202e', '\r']) {
      const got = argvs(`Run \`npm test a${hidden}b\``);
      if (got) assert.ok(!shownCommand(got[0]!).includes(hidden), JSON.stringify(shownCommand(got[0]!)));
    }
  });

  it('attack: over generated lines of words, quotes, backslashes and "&&", the calls are the shell\'s commands or none (property)', () => {
    const piece = fc.constantFrom('a', 'b', ' ', '  ', '"', "'", '\\', '&&', ' && ', '-x', '=', 'n');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
        const tail = pieces.join('');
        if (tail.includes('`')) return;
        const line = `npm test ${tail}`;
        const got = argvs(`Run \`${line}\``);
        if (got === undefined) return;
        const shell = shellCommands(line);
        assert.deepEqual(got, shell, `${JSON.stringify(line)}: ran ${JSON.stringify(got)}, a shell reads ${JSON.stringify(shell)}`);
      }),
      { numRuns: 2000 },
    );
  });
});
