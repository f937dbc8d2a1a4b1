import { knownProgram, type ProgramShape } from './knownPrograms';
import { cleanToken, isPathToken } from '../text/pathsInText';
import { readShellCommands, type ShellWord } from './readShellCommands';
import { alternation, isCjk, reportVerbs, runWords } from './requestWords';

/** What a step's command may be read against besides its own text. */
export interface CommandContext {
  /** The project's test command, for "run the tests" (none: such a step is a person's or an agent's). */
  testCommand?: readonly string[];
  /** The paths the step before named, for "run mypy on it". */
  referentPaths?: readonly string[];
}

/** A `run_command` call with its exact argument names (a `ToolCall`). */
export interface CommandCall {
  tool: 'run_command';
  args: Record<string, unknown>;
}

/** The commands a step text asks for, each after the one before. */
export interface CommandAction {
  calls: CommandCall[];
  inOrder: true;
}

const runVerb = /^(?:please\s+)?(?:run|execute|exec|invoke|launch|start)\b\s*/i;
const checkVerb = /^(?:make sure|ensure|check|verify)(?:\s+that)?\s+/i;
// Words that are never a name on a command line, even where a program takes one ("run npm install on the server").
const fillers = new Set(
  ('on in at to with without and or for from by the a an it its them they this that these those of all everything again first now please suite tests ' +
    'package packages project code codebase repo repository files file changes results coverage output me us my our your then so if when until after ' +
    'before properly quickly').split(' '),
);
// A plain word: letters only (a path, an option, a number, a ref such as origin/main is not plain).
const plainWord = /^\p{L}[\p{L}'’]*$/u;
const projectTests = /^(?:the\s+|all\s+(?:the\s+|of\s+the\s+)?)?(?:whole\s+|full\s+|entire\s+)?(?:(?:unit|integration|e2e)\s+)?(?:tests|test\s+suite|testsuite|specs)(?:\s+again)?$/i;
const testsWith = /^(?:the\s+|all\s+(?:the\s+)?)?(?:whole\s+|full\s+)?(?:(?:unit|integration)\s+)?(?:tests|test\s+suite)\s+(?:with|using|via|through)\s+(\S.*)$/i;
// "make sure the tests pass", "check that all tests still pass": after a check verb, the project's tests.
const testsPass =
  /^(?:the\s+|all\s+(?:the\s+|of\s+the\s+)?)?(?:whole\s+|full\s+|entire\s+)?(?:(?:unit|integration|e2e)\s+)?(?:tests|test\s+suite|specs)\s+(?:still\s+)?(?:pass|passes|succeed|succeeds|are\s+green|is\s+green|run\s+green)(?:\s+again)?[.!]?$/i;
const programSuite = /^(?:the\s+)?(?:whole\s+|full\s+|entire\s+)?(\S+)\s+(?:(?:unit\s+)?tests|(?:test\s+)?suite)$/i;
const onTarget = /^(\S+)\s+(?:on|over|against|across)\s+(\S.*)$/i;
// Where "… on <paths>" turns to its purpose (", to check the types"); a space run is matched from its start only.
const purposeClause = /(?:,|(?<!\s))\s+(?:to|so|in\s+order\s+to)\s/i;
// The end of a plain command line: at most "in/from <folder>", then at most a trailer (", …", "and …", "then …", "to …").
// The command is what comes before the earliest place this matches to the end; a space run is matched from its start only.
const commandTail =
  /(?:(?<!\s)\s+(?:in|from)\s+(?:the\s+)?(\S+?)(?:\s+(?:folder|directory))?)?((?<!\s)\s+(?:and|to|so|then|in\s+order\s+to)\s.*|,\s.*)?$/i;
const wholeWorkspace = /^(?:the\s+)?(?:whole\s+|entire\s+)?(?:project|repo|repository|codebase|code\s+base|code|workspace|everything)$/i;
// Folders named without a "/" that "run black on src" means (any other single word may be English: "on save").
const folderNames = new Set(['src', 'lib', 'tests', 'test', 'app', 'apps', 'scripts', 'source', 'pkg', 'cmd', 'internal', 'docs', 'examples', 'bin', 'tools']);
const pronoun = /^(?:it|them|this|that|those|these|(?:this|that|the|those|these)\s+files?)$/i;
const purpose = /^,?\s*(?:to|so|in\s+order\s+to)\s/i;
const reported = new RegExp(String.raw`^,?\s*and\s+(?:${reportVerbs})\b`, 'i');
const tickedTrailer = new RegExp(
  String.raw`^(?:,?\s*(?:please|now|again|for\s+me)|\s+(?:passes|pass|works|succeeds|still\s+passes|runs\s+cleanly|is\s+green)|,?\s+(?:to|so|in\s+order\s+to)\s.*|,?\s+and\s+(?:${reportVerbs})\b.*)?$`,
  'i',
);
const latinRunWords = new RegExp(String.raw`(?:^|\s)(?:${alternation(runWords.filter((word) => !isCjk(word)))})(?=\s|$)`, 'giu');
const cjkRunWords = new RegExp(alternation(runWords.filter(isCjk)), 'g');

/**
 * The `run_command` calls a step text asks for (docs/architecture.md §5), or `undefined`.
 * A command comes from backticks (after a run or check verb of any language, or alone with a
 * known program: "Run `npm test` in web", "führe `npm test` aus", "`npm test` を実行"), or
 * from a known program (`knownPrograms`) after a run verb whose every further word is an
 * argument: an option, a path, a number, quoted text, a subcommand or a name where the
 * program takes one ("run npm run build", "run pytest -q"). English around it makes no
 * command ("run pytest with coverage"), except the well-known forms: "the tests" (the
 * project's `context.testCommand`, also after a check verb: "make sure the tests pass"), "the pytest suite" (`pytest`), "mypy on src" or "on it"
 * (the step before's paths), a working folder ("in web"), a purpose ("to check it") and
 * "and report the results". `line` is one step, trimmed.
 */
export function recognizeCommand(line: string, context: CommandContext = {}): CommandAction | undefined {
  const afterVerb = runVerb.exec(line);
  const afterCheck = afterVerb ? null : checkVerb.exec(line);
  const rest = afterVerb ? line.slice(afterVerb[0].length) : afterCheck ? line.slice(afterCheck[0].length) : line;
  const using = afterVerb ? testsWith.exec(rest) : null;
  if (using) return recognizeCommand(`run ${using[1]!}`, context);
  if (afterCheck && testsPass.test(rest)) return context.testCommand ? testRun(context.testCommand) : undefined;
  if (line.includes('`')) return tickedCommands(rest, afterVerb !== null || afterCheck !== null) ?? commandsAmongRunWords(line);
  return afterVerb ? plainCommands(rest, context) : undefined;
}

/** The project's test command as the one call. */
function testRun(testCommand: readonly string[]): CommandAction {
  return { calls: [{ tool: 'run_command', args: { argv: [...testCommand] } }], inOrder: true };
}

/** "`npm test`", "run `a` and `b` in web", "make sure `npm run lint` passes". */
function tickedCommands(rest: string, verb: boolean): CommandAction | undefined {
  let text = verb ? rest.replace(/^(?:the\s+)?(?:command\s+)?/i, '') : rest;
  const lines: string[] = [];
  for (;;) {
    const ticked = /^`([^`]+)`/.exec(text);
    if (!ticked) break;
    lines.push(ticked[1]!);
    text = text.slice(ticked[0].length);
    const joiner = /^(?:\s*,\s*(?:and\s+)?(?:then\s+)?|\s+(?:and\s+)?then\s+|\s+and\s+)(?=`)/i.exec(text);
    if (!joiner) break;
    text = text.slice(joiner[0].length);
  }
  if (lines.length === 0) return undefined;
  const where = /^\s+(?:in|from)\s+(?:the\s+)?([^\s,]+)(?:\s+(?:folder|directory))?(?=[\s,]|$)/i.exec(text);
  if (where) text = text.slice(where[0].length);
  if (!tickedTrailer.test(text)) return undefined;
  const commands = commandsOf(lines);
  if (!verb && commands?.some((words) => !knownProgram(words[0]!.text))) return undefined;
  return callsOf(commands, where?.[1]);
}

/** Backticked commands among nothing but run words of any language ("führe `npm test` aus", "运行 `npm test`"). */
function commandsAmongRunWords(line: string): CommandAction | undefined {
  const lines = [...line.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
  const around = line.replace(/`[^`]*`/g, ' ');
  const left = around.replace(cjkRunWords, ' ').replace(latinRunWords, ' ').replace(/[\s,.;:!、，。！：]+/g, '');
  if (left !== '' || around.trim() === '') return undefined;
  return callsOf(commandsOf(lines), undefined);
}

/** A known program and its arguments after a run verb, or one of the well-known forms. */
function plainCommands(rest: string, context: CommandContext): CommandAction | undefined {
  const plain = rest.replace(/^(?:the\s+)?(?:command\s+)?/i, '');
  if (projectTests.test(rest)) return context.testCommand ? testRun(context.testCommand) : undefined;
  const suite = programSuite.exec(rest);
  const suiteTests = suite ? knownProgram(suite[1])?.tests : undefined;
  if (suiteTests) return { calls: [{ tool: 'run_command', args: { argv: [...suiteTests] } }], inOrder: true };
  if (!knownProgram(plain.split(/\s+/)[0])) return undefined;
  const target = onTarget.exec(plain);
  const onPaths = target ? knownProgram(target[1])?.onPaths : undefined;
  if (target && onPaths) {
    // "run mypy on src and tests to check the types": the paths, then at most a purpose.
    const at = target[2]!.search(purposeClause);
    const [what, why] = at < 0 ? [target[2]!, undefined] : [target[2]!.slice(0, at), target[2]!.slice(at)];
    const paths = targetPaths(what, context);
    if (!paths || !(why === undefined || purpose.test(why))) return undefined;
    return callsOf([[target[1]!, ...onPaths, ...paths].map((text) => ({ text, quoted: false }))], undefined);
  }

  const cut = commandTail.exec(plain)!;
  const commandLine = plain.slice(0, cut.index);
  const cwd = cut[1];
  const trailer = cut[2];
  if (trailer !== undefined) {
    // "Run npm install then npm test": the next command runs after this one.
    const next = /^,?\s*(and\s+then|then|and|&&)\s+(?!\s)(.*)$/i.exec(trailer);
    const more = next && knownProgram(next[2]!.split(/\s+/)[0]) ? plainCommands(next[2]!, context) : undefined;
    if (more && cwd === undefined) {
      const first = plainCommands(commandLine, context);
      return first ? { calls: [...first.calls, ...more.calls], inOrder: true } : undefined;
    }
    // Work ordered after the command ("then fix the failures"), or anything else said of it, is more than
    // this command: the step is not one plain tool action, so none of it is dropped.
    if (more || !(purpose.test(trailer) || reported.test(trailer) || /^,\s*(?:please|now|again)$/i.test(trailer))) return undefined;
  }
  const commands = readShellCommands(commandLine);
  return commands?.every(onlyArguments) ? callsOf(commands, cwd) : undefined;
}

/** The paths "run mypy on …" names: paths, the whole workspace (`.`), or "it" for the step before's paths. */
function targetPaths(text: string, context: CommandContext): string[] | undefined {
  if (wholeWorkspace.test(text)) return ['.'];
  if (pronoun.test(text)) return context.referentPaths && context.referentPaths.length > 0 ? [...context.referentPaths] : undefined;
  const items = text.split(/,(?:\s*and\s+)?|(?<!\s)\s+and\s+/).map((item) => cleanToken(item.trim()).replace(/^\.\//, ''));
  return items.every((item) => (isPathToken(item) || folderNames.has(item)) && !item.startsWith('/')) ? items : undefined;
}

/** The commands of backticked command lines in order, or `undefined` when one of them is no finished command (`readShellCommands`). */
function commandsOf(lines: readonly string[]): ShellWord[][] | undefined {
  const commands: ShellWord[][] = [];
  for (const line of lines) {
    // Each line read alone: a quote left open in one never takes in the next.
    const read = readShellCommands(line);
    if (read === undefined) return undefined;
    commands.push(...read);
  }
  return commands;
}

/** The calls of commands read from a command line (`a && b` in order), or `undefined` for no commands or an unusable folder. */
function callsOf(commands: readonly (readonly ShellWord[])[] | undefined, cwd: string | undefined): CommandAction | undefined {
  const cwdPath = cwd === undefined ? undefined : cleanToken(cwd).replace(/^\.\//, '').replace(/\/$/, '');
  if (cwdPath !== undefined && (cwdPath.startsWith('/') || !/^[\w@.+/-]+$/.test(cwdPath))) return undefined;
  // Stryker disable next-line ConditionalExpression,LogicalOperator,MethodExpression,ArrowFunction: read commands are never empty; kept as the last guard before a command runs
  if (commands === undefined || commands.length === 0 || commands.some((words) => words.length === 0)) return undefined;
  const calls = commands.map((words): CommandCall => ({
    tool: 'run_command',
    args: { argv: words.map((word) => word.text), ...(cwdPath ? { cwd: cwdPath } : {}) },
  }));
  return { calls, inOrder: true };
}

/** Whether every word after the program is an argument its shape allows (see `ProgramShape`). */
function onlyArguments(tokens: readonly ShellWord[]): boolean {
  const shape: ProgramShape | undefined = knownProgram(tokens[0]?.text);
  if (!shape) return false;
  if (shape.anyWords) return true;
  let names = shape.nameFirst === true;
  let optionValue = false;
  for (const token of tokens.slice(1)) {
    const word = token.text;
    if (token.quoted || !plainWord.test(word)) {
      optionValue = word.startsWith('-') && !word.includes('=');
      if (shape.nameAfter?.includes(word)) names = true;
      else if (shape.argsAfterPath && isPathToken(word)) names = true;
      continue;
    }
    const filler = fillers.has(word.toLowerCase());
    if (shape.words?.includes(word)) {
      if (shape.nameAfter?.includes(word)) names = true;
    } else if (!((names || optionValue) && !filler)) {
      return false;
    }
    optionValue = false;
  }
  return true;
}
