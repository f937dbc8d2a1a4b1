import { programName } from './commandAllowRules';

/**
 * Programs that run a helper named `<program>-<subcommand>` for a subcommand they do not
 * have built in, looking it up on `PATH` (`git lfs` runs `git-lfs`, `cargo fmt` runs
 * `cargo-fmt`), each with its options before the subcommand that take the next word as
 * their value (`git -C dir lfs`).
 */
export const programsWithHelpers: Readonly<Record<string, readonly string[]>> = {
  git: ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--attr-source'],
  cargo: ['-C', '-Z', '--config', '--color', '--explain'],
};

/** The helper a command would run for its subcommand: `name` as looked up (`git-lfs`), the program and the subcommand. */
export interface HelperLookup {
  name: string;
  program: string;
  subcommand: string;
  /**
   * The subcommand names a folder (`git x/y`): the program then runs the file `name`
   * relative to its working folder, which `PATH` has no part in.
   */
  inFolder: boolean;
}

/**
 * The helper `argv` would have its program run (`["git", "-C", "a", "lfs", "pull"]`:
 * `git-lfs`), or `undefined` when the program is not one of `programsWithHelpers` or no
 * subcommand follows its options. Only the name: whether the helper exists, and where, is
 * the command runner's to say. A built-in subcommand (`git status`) gives a name too,
 * since which subcommands are built in depends on the installed version.
 */
export function helperLookup(argv: readonly string[]): HelperLookup | undefined {
  const program = programName(argv[0] ?? '');
  const valued = Object.hasOwn(programsWithHelpers, program) ? programsWithHelpers[program] : undefined;
  if (valued === undefined) return undefined;
  for (let index = 1; index < argv.length; index++) {
    const word = argv[index] ?? '';
    // rustup's `cargo +nightly fmt` names a toolchain first.
    if (word.startsWith('-') || (program === 'cargo' && index === 1 && word.startsWith('+'))) {
      if (valued.includes(word)) index++;
      continue;
    }
    if (word === '') return undefined;
    return { name: `${program}-${word}`, program, subcommand: word, inFolder: /[/\\]/.test(word) };
  }
  return undefined;
}
