import { describeAllowRule, programName } from './commandAllowRules';
import { commandDefiningFiles } from './commandDefiningFiles';

/** Most file names a note lists. */
const namedFiles = 3;

/**
 * What the user should know when giving `rule`: the files of the workspace that decide what its words run, where there are
 * such (`npm test` runs the `test` script of the workspace's `package.json`, `make` its Makefile), in plain words, so a rule
 * is not taken for an allowance of one fixed program: "npm test" runs what the workspace's package.json and .npmrc say
 * when it runs, whoever wrote them. A relative program (`./run.sh`) is the workspace's own file; git runs what a
 * repository's own configuration names (which asks). `undefined` for a program no file of the workspace steers.
 */
export function allowRuleWorkspaceNote(rule: readonly string[]): string | undefined {
  // Stryker disable next-line StringLiteral: for an empty rule any stand-in that is neither relative, git nor a known program gives undefined alike
  const program = rule[0] ?? '';
  const shown = describeAllowRule([...rule]);
  if (/^\.{1,2}[/\\]/.test(program)) {
    return `"${shown}" runs the workspace's own file ${program}, whatever it holds when it runs: allow it only in a project you trust.`;
  }
  const name = programName(program);
  if (name === 'git') {
    return `"${shown}" runs the git on your PATH; what a repository's own git configuration names for it (a filter, a diff driver, a hook) asks first.`;
  }
  const files = Object.hasOwn(commandDefiningFiles, name) ? commandDefiningFiles[name] : undefined;
  if (files === undefined) return undefined;
  // Each name once whatever its case (`Makefile`, `makefile`), folders left out.
  // Stryker disable next-line MethodExpression: only git's entry names a folder, and git is answered above
  const all = [...(files.here ?? []), ...(files.up ?? []), ...(files.anywhere ?? [])].filter((file) => !file.endsWith('/'));
  const names = all.filter((file, index) => all.findIndex((other) => other.toLowerCase() === file.toLowerCase()) === index).slice(0, namedFiles);
  const listed = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}` : (names[0] ?? '');
  return (
    `"${shown}" runs what the workspace's own ${listed} say when it runs (a repository's scripts and build files are its own code): ` +
    'allow it only in a project you trust. A run that changes one of them asks again before the command.'
  );
}
