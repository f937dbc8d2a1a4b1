import type { WorkspaceFs } from '../workspacePorts';

/** Where a project says how its tests run: a file at its root, and what in it shows the command. */
const testConventions: readonly { argv: readonly string[]; files: readonly { path: string; shows?: RegExp | ((text: string) => boolean) }[] }[] = [
  { argv: ['npm', 'test'], files: [{ path: 'package.json', shows: hasTestScript }] },
  {
    argv: ['pytest'],
    files: [
      { path: 'pytest.ini' },
      { path: 'conftest.py' },
      { path: 'pyproject.toml', shows: /^\[tool\.pytest/m },
      { path: 'setup.cfg', shows: /^\[tool:pytest\]/m },
      { path: 'tox.ini', shows: /^\[pytest\]/m },
    ],
  },
  { argv: ['cargo', 'test'], files: [{ path: 'Cargo.toml' }] },
  { argv: ['go', 'test', './...'], files: [{ path: 'go.mod' }] },
];
const maxBytes = 256 * 1024;

/**
 * The command that runs the project's tests, read from the files at the workspace's root
 * (docs/architecture.md §5): `npm test` when package.json has a test script (not npm's
 * placeholder), `pytest` when pytest is configured (pytest.ini, conftest.py, or its section
 * in pyproject.toml, setup.cfg or tox.ini), `cargo test` with a Cargo.toml, `go test ./...`
 * with a go.mod. `undefined` when none of them, or more than one, says so: the planner then
 * leaves "run the tests" to a person or an agent rather than guess. A file it cannot read
 * counts as absent.
 */
export async function projectTestCommand(workspace: WorkspaceFs, signal?: AbortSignal): Promise<string[] | undefined> {
  const found: (readonly string[])[] = [];
  for (const convention of testConventions) {
    for (const file of convention.files) {
      if (await shows(workspace, file.path, file.shows, signal)) {
        found.push(convention.argv);
        break;
      }
    }
  }
  return found.length === 1 ? [...found[0]!] : undefined;
}

async function shows(
  workspace: WorkspaceFs,
  path: string,
  shown: RegExp | ((text: string) => boolean) | undefined,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  try {
    if (shown === undefined) return (await workspace.stat(path, signal))?.type === 'file';
    const text = await workspace.readText(path, signal, { maxBytes });
    return shown instanceof RegExp ? shown.test(text) : shown(text);
  } catch {
    return false;
  }
}

/** Whether a package.json has a test script other than the one `npm init` writes ("echo \"Error: no test specified\" && exit 1"). */
function hasTestScript(text: string): boolean {
  const scripts: unknown = (JSON.parse(text) as { scripts?: unknown } | null)?.scripts;
  const test = typeof scripts === 'object' && scripts !== null ? (scripts as Record<string, unknown>)['test'] : undefined;
  return typeof test === 'string' && test.trim() !== '' && !test.includes('no test specified');
}
