import { UsageError } from './cliIo';

/**
 * The options only some commands read, each with those commands. Given to any other command they would be ignored,
 * and an ignored answer is worse than none: `run plan.json --yes --reject S1` wrote S1's file.
 */
const scopedOptions = {
  approve: ['resume'],
  reject: ['resume'],
  'accept-review': ['resume'],
  'reject-review': ['resume'],
  done: ['resume'],
  failed: ['resume'],
  answer: ['plan', 'resume'],
  from: ['rerun', 'undo'],
  format: ['import', 'export'],
  out: ['import', 'export'],
  run: ['export'],
  // A run's trace goes to a file only from its journal, afterwards: `run --trace FILE` wrote nothing and said nothing.
  trace: ['trace'],
} as const satisfies Record<string, readonly string[]>;

/** The commands that read a task file as a plan, its format told by its name and content. */
const readsTaskFiles: ReadonlySet<string> = new Set(['run', 'validate']);

/** The options that answer what a run waits on: for a run not yet waiting, the run itself asks. */
const answerOptions: ReadonlySet<string> = new Set(['approve', 'reject', 'accept-review', 'reject-review', 'done', 'failed']);

/**
 * Throws a `UsageError` naming the first option of `values` that `command` does not read, and the commands that do,
 * before anything is done.
 */
export function checkOptionScope(command: string | undefined, values: Readonly<Record<string, unknown>>): void {
  for (const [option, commands] of Object.entries(scopedOptions)) {
    if (values[option] === undefined || command === undefined || (commands as readonly string[]).includes(command)) continue;
    const goesWith = commands.map((name) => `"${name}"`).join(' or ');
    const why = answerOptions.has(option)
      ? ` It answers a run that waits: task-planner resume <runId> --${option} STEP. A run asks you each change and command when it gets there (without a terminal it waits, and resume answers it).`
      : '';
    const trace =
      option === 'trace' ? ' Run first, then write its trace: task-planner trace <runId> --trace FILE (or give run --trace-endpoint URL).' : '';
    // The docs once said run took --format too: say how a task file's format is told, and how to read it as another.
    const format =
      option === 'format' && readsTaskFiles.has(command)
        ? ` "${command}" tells a task file's format by its name and content; to read it as another format, ` +
          `import it first (task-planner import FILE --format F --out plan.json) and ${command} plan.json.`
        : '';
    throw new UsageError(`--${option} does not apply to "${command}"; it goes with ${goesWith}.${why}${trace}${format} Nothing was done.`);
  }
}
