import type { ToolRegistry } from '../tools/tool';
import { toolEffectOf } from '../tools/toolEffectOf';
import type { Plan } from './planSchema';

/** A command line of a step (its `run_command` call or a command check) that reads as an English phrase. */
export interface WordsAsCommand {
  stepId: string;
  /** The command line as written, words joined by spaces. */
  line: string;
  /** The words that are English rather than arguments of the program. */
  words: string[];
}

// Words of a sentence that no program takes as a bare argument: "mypy on it", "black on the
// package", "pytest suite", "pytest with coverage". A program's own words ("npm test", "make
// all", "pytest tests") are not among them.
const sentenceWords = new Set([
  'a', 'an', 'the', 'on', 'it', 'its', 'of', 'for', 'with', 'to', 'into', 'and', 'then', 'again',
  'my', 'our', 'your', 'this', 'that', 'these', 'those', 'them', 'every', 'whole', 'entire', 'please',
  'suite', 'package', 'project', 'codebase', 'repo', 'repository', 'everything',
]);
// Programs whose arguments are text to show, where any words are fine.
const textPrograms = new Set(['echo', 'printf']);
const bareWord = /^[a-z]+$/;

/**
 * The command lines of `plan` made of English words (docs/architecture.md §3): a tool step
 * whose tool runs commands (`run_command`, or a registry tool of effect `command`) with an
 * `argv`, and each command check. A line counts when everything after the program is a
 * bare lowercase word and one of them is a word of a sentence ("on", "the", "suite", ...);
 * a program written with spaces in it ("black on the package") is read as its words. One
 * finding per step, for its first such line. Linear in steps and checks.
 */
export function wordsAsCommandFindings(plan: Pick<Plan, 'steps'>, registry: ToolRegistry | undefined): WordsAsCommand[] {
  const found: WordsAsCommand[] = [];
  for (const step of plan.steps) {
    const lines: unknown[] = (step.checks ?? []).flatMap((check) => (check.kind === 'command' ? [check.argv] : []));
    if (step.kind === 'tool' && toolEffectOf(step.tool ?? '', registry) === 'command') lines.unshift(step.args?.['argv']);
    for (const argv of lines) {
      const words = sentenceIn(argv);
      if (words === undefined) continue;
      found.push({ stepId: step.id, line: (argv as string[]).join(' '), words });
      break;
    }
  }
  return found;
}

/** The sentence words of `argv` when it reads as a phrase, else `undefined`. */
function sentenceIn(argv: unknown): string[] | undefined {
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((part) => typeof part === 'string')) return undefined;
  const [program = '', ...rest] = argv.flatMap((part, index) => (index === 0 ? part.trim().split(/\s+/) : [part]));
  if (rest.length === 0 || textPrograms.has(program) || !rest.every((part) => bareWord.test(part))) return undefined;
  const words = rest.filter((part) => sentenceWords.has(part));
  return words.length === 0 ? undefined : [...new Set(words)];
}
