/**
 * What a known program's command line may hold besides options ("-q", "--cov=src"), paths,
 * numbers and quoted text: the plain words it takes. A plain word not allowed here is
 * English, and the text around the program is not a command line.
 */
export interface ProgramShape {
  /** Its subcommands and their words ("test", "compose", "up"), allowed wherever they stand. */
  words?: readonly string[];
  /** After one of these words, any plain word is a name (a script, a package, a branch, a target). */
  nameAfter?: readonly string[];
  /** Its first plain word is already a name ("make build", "yarn lint", "npx tsc"). */
  nameFirst?: true;
  /** Plain words after a path are the script's own arguments ("python3 manage.py migrate"). */
  argsAfterPath?: true;
  /** Any words are its arguments ("echo hello world"). */
  anyWords?: true;
  /** How "the <program> tests" or "the <program> suite" runs. */
  tests?: readonly string[];
  /** Works on the files or folders it is given ("run mypy on src" → `mypy src`), after these words (`ruff check src`). */
  onPaths?: readonly string[];
}

/** A list of words written as one string, space-separated (the lists below stay readable). */
const words = (list: string): readonly string[] => list.split(' ');

const packageManager: ProgramShape = { words: words('install add remove run test build start lint dev upgrade why audit dlx exec ci'), nameFirst: true };
const interpreter: ProgramShape = { argsAfterPath: true };
const pathTool: ProgramShape = { onPaths: [] };
const pip: ProgramShape = { words: words('install uninstall list freeze show check'), nameAfter: words('install uninstall show') };

/**
 * The programs the planner without a model runs when a request names them (docs/architecture.md §5),
 * each with the shape of its command line.
 */
export const knownPrograms: Readonly<Record<string, ProgramShape>> = {
  npm: {
    words: words(
      'test t install i ci run run-script start stop restart build audit fix publish pack ls outdated update version init link uninstall exec prune ' +
        'dedupe doctor cache clean config view',
    ),
    nameAfter: words('run run-script install i uninstall exec view version update'),
    tests: ['npm', 'test'],
  },
  npx: { nameFirst: true },
  yarn: { ...packageManager, tests: ['yarn', 'test'] },
  pnpm: { ...packageManager, tests: ['pnpm', 'test'] },
  bun: { ...packageManager, tests: ['bun', 'test'] },
  node: interpreter,
  deno: { words: words('test run fmt lint check task'), nameAfter: ['task'], argsAfterPath: true, tests: ['deno', 'test'] },
  git: {
    words: words(
      'status diff log pull push fetch add commit checkout switch branch merge rebase stash show tag clone init reset restore rm mv remote submodule ' +
        'update blame grep clean cherry-pick bisect describe shortlog pop apply drop list main master origin upstream HEAD',
    ),
    nameAfter: words('checkout switch branch merge rebase tag push pull fetch cherry-pick grep'),
  },
  make: { nameFirst: true, tests: ['make', 'test'] },
  pytest: { onPaths: [], tests: ['pytest'] },
  python: { ...interpreter, nameAfter: ['-m'] },
  python3: { ...interpreter, nameAfter: ['-m'] },
  pip,
  pip3: pip,
  cargo: {
    words: words('build test run check clippy fmt doc bench clean update add install publish tree'),
    nameAfter: words('add install'),
    tests: ['cargo', 'test'],
  },
  go: { words: words('test build run vet fmt mod tidy get install generate work list env version'), tests: ['go', 'test', './...'] },
  tsc: {},
  eslint: pathTool,
  prettier: {},
  jest: { tests: ['jest'] },
  mocha: { tests: ['mocha'] },
  vitest: { words: words('run watch'), tests: ['vitest', 'run'] },
  docker: {
    words: words('compose build run ps up down logs pull push images exec stop start restart rm rmi inspect volume network system prune ls'),
    nameAfter: words('run exec pull push stop start restart rm rmi logs inspect'),
  },
  mvn: { nameFirst: true, tests: ['mvn', 'test'] },
  gradle: { nameFirst: true, tests: ['gradle', 'test'] },
  './gradlew': { nameFirst: true, tests: ['./gradlew', 'test'] },
  dotnet: { words: words('build test run restore publish format clean add new tool watch'), nameAfter: words('new add'), tests: ['dotnet', 'test'] },
  ls: {},
  cat: {},
  grep: { nameFirst: true },
  echo: { anyWords: true },
  rustc: {},
  ruby: interpreter,
  bundle: { words: words('install exec update'), nameAfter: ['exec'] },
  rake: { nameFirst: true },
  php: interpreter,
  composer: { words: words('install update require dump-autoload test run-script'), nameAfter: words('require run-script') },
  java: {},
  javac: {},
  swift: { words: words('build test run package'), tests: ['swift', 'test'] },
  flutter: { words: words('test build run analyze pub get clean doctor'), tests: ['flutter', 'test'] },
  dart: { words: words('test run analyze format pub get'), tests: ['dart', 'test'] },
  terraform: { words: words('init plan apply validate fmt destroy output show') },
  kubectl: {
    words: words('get apply describe logs delete rollout status create exec pods deployments services'),
    nameAfter: words('logs describe delete exec'),
  },
  helm: { words: words('install upgrade list uninstall template lint repo update add'), nameAfter: words('install upgrade uninstall add') },
  ruff: { words: words('check format'), onPaths: ['check'] },
  black: pathTool,
  mypy: pathTool,
  flake8: pathTool,
  pylint: pathTool,
  isort: pathTool,
  tox: { tests: ['tox'] },
  poetry: { words: words('install run add build lock update show check publish'), nameAfter: words('run add') },
  uv: { words: words('run sync add pip lock venv tool install'), nameAfter: words('run add install') },
};

/** The shape of `program` when it is a known program, else `undefined`. */
export function knownProgram(program: string | undefined): ProgramShape | undefined {
  return program !== undefined && Object.hasOwn(knownPrograms, program) ? knownPrograms[program] : undefined;
}
