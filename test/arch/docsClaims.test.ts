import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { parsePlan } from '../../src/core/plan/parsePlan';
import { validatePlan } from '../../src/core/plan/validatePlan';
import { builtinTools } from '../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../src/core/tools/createToolRegistry';
import { projectRoot } from './importGraph';
import { codeTexts, headingAnchors, linkTargets, readDocPages } from './markdownDocs';
import { readResolvedManifest } from './resolvedManifest';

interface Setting {
  default?: unknown;
  scope?: string;
  enum?: string[];
}

interface Manifest {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  contributes: {
    configuration: { properties: Record<string, Setting> } | { properties: Record<string, Setting> }[];
    commands: { command: string; title: string; category?: string }[];
  };
}

const manifest = readResolvedManifest() as Manifest;
const settings: Record<string, Setting> = Object.assign({}, ...[manifest.contributes.configuration].flat().map((section) => section.properties)) as Record<
  string,
  Setting
>;
const pages = readDocPages();
const cliSource = readFileSync(join(projectRoot, 'src/cli/cli.ts'), 'utf8');

/** Every `taskPlanner.…` name the manifest defines: settings, commands, views and the context keys its `when` clauses read. */
function manifestNames(): Set<string> {
  const names = new Set([...Object.keys(settings), ...manifest.contributes.commands.map((command) => command.command)]);
  const visit = (value: unknown, key: string): void => {
    if (typeof value === 'string' && ['when', 'enablement', 'id'].includes(key)) {
      for (const match of value.matchAll(/taskPlanner\.[\w.]*\w/g)) names.add(match[0]);
    } else if (value && typeof value === 'object') {
      for (const [innerKey, inner] of Object.entries(value)) visit(inner, innerKey);
    }
  };
  visit(manifest.contributes, '');
  return names;
}

/** The subcommands `main` in src/cli/cli.ts dispatches on, and the options its argument parser takes. */
function cliGrammar(): { commands: Set<string>; options: Set<string> } {
  const switchText = cliSource.slice(cliSource.indexOf('switch (command)'));
  const commands = new Set([...switchText.matchAll(/case '([a-z]+)':/g)].map((match) => match[1] ?? ''));
  const optionsText = /const cliOptions = \{([\s\S]*?)\n\} as const/.exec(cliSource)?.[1] ?? '';
  const options = new Set([...optionsText.matchAll(/^\s+'?([a-z-]+)'?: \{ type:/gm)].map((match) => `--${match[1] ?? ''}`));
  return { commands, options };
}

/** Each claim found, with the page it is on, for messages that name both. */
function claims(find: (text: string) => string[]): { page: string; claim: string }[] {
  return pages.flatMap((page) => find(page.text).map((claim) => ({ page: page.path, claim })));
}

const cliCall = /(?:^|\s)(?:task-planner|node dist\/cli\.js|dist\/cli\.js)((?: +[^\s`]+)*)/;

// Pages where a span that is only a flag may be another program's (npm's `--prefix` in the
// command allow rules, the mutation script's `--force`, esbuild's `--production`).
const otherProgramsFlags = new Set(['docs/using.md', 'docs/security.md', 'docs/development.md', 'docs/architecture.md']);

describe('architecture: the README and docs/ name only what exists', () => {
  it('names only npm scripts package.json has', () => {
    const found = claims((text) => [...text.matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1] ?? ''));
    assert.ok(found.length >= 10, 'the pages name npm scripts');
    assert.deepEqual(
      found.filter(({ claim }) => !(claim in manifest.scripts)),
      [],
      'these pages name npm scripts package.json does not have',
    );
  });

  it('names only taskPlanner settings, commands and context keys the manifest defines', () => {
    const known = manifestNames();
    const found = claims((text) => codeTexts(text).flatMap((code) => [...code.matchAll(/taskPlanner\.[\w.]*\w/g)].map((match) => match[0])));
    assert.ok(found.length >= 30, 'the pages name settings');
    assert.deepEqual(
      found.filter(({ claim }) => !known.has(claim)),
      [],
      'these pages name taskPlanner names the manifest does not define',
    );
  });

  it('lists every setting once in docs/using.md with its default, its values and whether only your user settings count', () => {
    const using = pages.find((page) => page.path === 'docs/using.md')?.text ?? '';
    const rows = [...using.matchAll(/^\| `(taskPlanner\.[\w.]+)` \| `([^`]*)` \| ([^|]*) \| (.*) \|$/gm)];
    assert.deepEqual(rows.map((row) => row[1]).sort(), Object.keys(settings).sort(), 'the settings table lists every setting exactly once');
    for (const [, key = '', shown = '', where = '', what = ''] of rows) {
      assert.deepEqual(JSON.parse(shown), settings[key]?.default, `the default of ${key}`);
      const values = [...what.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
      for (const value of settings[key]?.enum ?? []) assert.ok(values.includes(value), `${key} lists its value ${value}`);
      assert.equal(where.trim() === 'yours only', settings[key]?.scope === 'application', `whether only user settings set ${key}`);
    }
  });

  it('states the defaults of settings as package.json declares them', () => {
    const found = claims((text) =>
      [...text.matchAll(/`(taskPlanner\.[\w.]+)`\s*\([^)]*?\bdefault (-?[\w.]+)/g)].map((match) => `${match[1] ?? ''}=${match[2] ?? ''}`),
    );
    assert.ok(found.length >= 3, 'the pages state defaults');
    assert.deepEqual(
      found.filter(({ claim }) => {
        const [key = '', value] = claim.split('=');
        return String(settings[key]?.default) !== value;
      }),
      [],
      'these pages state a default package.json does not declare',
    );
  });

  it('names only subcommands and options the command line parses', () => {
    const { commands, options } = cliGrammar();
    assert.ok(commands.has('run') && options.has('--workspace'), 'reads the command line grammar from src/cli/cli.ts');
    const calls = claims((text) => codeTexts(text).flatMap((code) => cliCall.exec(code)?.[1]?.trim() ?? []));
    assert.ok(calls.length >= 15, 'the pages show command lines');
    const subcommands = calls.map(({ page, claim }) => ({ page, claim: claim.split(' ')[0] ?? '' })).filter(({ claim }) => /^[a-z]+$/.test(claim));
    assert.deepEqual(
      subcommands.filter(({ claim }) => !commands.has(claim)),
      [],
      'these pages name subcommands the command line does not have',
    );
    const flags = calls.flatMap(({ page, claim }) => [...claim.matchAll(/(?:^|\s)(--[a-z-]+)/g)].map((match) => ({ page, claim: match[1] ?? '' })));
    const alone = claims((text) => codeTexts(text).flatMap((code) => /^(--[a-z][a-z-]*)(?:[ =]|$)/.exec(code)?.[1] ?? [])).filter(
      ({ page }) => !otherProgramsFlags.has(page),
    );
    assert.ok(flags.length + alone.length >= 20, 'the pages name options');
    assert.deepEqual(
      [...flags, ...alone].filter(({ claim }) => !options.has(claim)),
      [],
      'these pages name options the command line does not parse',
    );
  });

  it('names only Task Planner commands the Command Palette lists', () => {
    const titles = new Set(manifest.contributes.commands.filter((command) => command.category === 'Task Planner').map((command) => command.title));
    const found = claims((text) => [...text.matchAll(/(?:\*\*|")Task Planner: ([^*"\n]+)(?:\*\*|")/g)].map((match) => match[1] ?? ''));
    assert.ok(found.length >= 5, 'the pages name commands');
    assert.deepEqual(
      found.filter(({ claim }) => !titles.has(claim)),
      [],
      'these pages name commands the extension does not contribute',
    );
  });

  it('says in the README why each runtime dependency is there, and names no other', () => {
    const readme = pages.find((page) => page.path === 'README.md')?.text ?? '';
    const table = readme.slice(readme.indexOf('## Runtime dependencies and why'));
    // A scoped package's siblings may be named by the part after the scope (`@opentelemetry/api`, `sdk-trace-base`).
    const named = [...table.matchAll(/^\| ([^|]+) \|/gm)].flatMap((row) => [...(row[1] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? ''));
    const dependencies = Object.keys(manifest.dependencies);
    const nameOf = (dependency: string): string[] => [dependency, dependency.replace(/^@[^/]+\//, '')];
    assert.deepEqual(
      dependencies.filter((dependency) => !nameOf(dependency).some((name) => named.includes(name))),
      [],
      'runtime dependencies the README does not explain',
    );
    assert.deepEqual(
      named.filter((name) => !dependencies.some((dependency) => nameOf(dependency).includes(name))),
      [],
      'the README explains packages that are no runtime dependency',
    );
  });

  it('says in docs/development.md what each development dependency is for', () => {
    const development = pages.find((page) => page.path === 'docs/development.md')?.text ?? '';
    const section = development.slice(development.indexOf('## Development dependencies'), development.indexOf('## Tests'));
    const named = new Set(codeTexts(section));
    const unnamed = Object.keys(manifest.devDependencies).filter((name) => !named.has(name) && !(name.startsWith('@types/') && named.has('@types/*')));
    assert.deepEqual(unnamed, [], 'development dependencies docs/development.md does not explain');
  });

  it('lists in docs/tools.md every built-in tool and no other', () => {
    const tools = pages.find((page) => page.path === 'docs/tools.md')?.text ?? '';
    const listed = [...tools.matchAll(/^\| ([^|]+) \|/gm)].flatMap((row) => [...(row[1] ?? '').matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)].map((match) => match[1]));
    const toolsFolder = join(projectRoot, 'src/core/tools');
    const builtin = readdirSync(toolsFolder)
      .filter((name) => /Tools?\.ts$/.test(name))
      .flatMap((name) => [...readFileSync(join(toolsFolder, name), 'utf8').matchAll(/^\s+name: '([a-z_]+)',$/gm)].map((match) => match[1]));
    assert.ok(builtin.includes('read_file') && builtin.includes('fetch_url'), 'reads the tool names from src/core/tools');
    assert.deepEqual([...listed].sort(), [...new Set(builtin)].sort());
  });

  it('shows in docs/plan-files.md an example plan that reads without a warning and validates', () => {
    const planFiles = pages.find((page) => page.path === 'docs/plan-files.md')?.text ?? '';
    const examples = [...planFiles.matchAll(/^```json\n([\s\S]*?)^```/gm)].map((match) => match[1] ?? '');
    assert.ok(examples.length >= 1, 'docs/plan-files.md shows a plan');
    for (const example of examples) {
      const read = parsePlan(example);
      assert.ok(read.ok, read.ok ? '' : read.errors.join('; '));
      assert.deepEqual(read.warnings, []);
      assert.deepEqual(validatePlan(read.plan, { tools: createToolRegistry(builtinTools()) }), []);
    }
  });

  it('links only to files and headings that exist', () => {
    const byPath = new Map(pages.map((page) => [page.path, page.text]));
    const broken = claims((text) => linkTargets(text)).filter(({ page, claim }) => {
      if (/^(https?:|mailto:)/.test(claim)) return false;
      const [file = '', anchor] = claim.split('#');
      const target = file === '' ? page : normalize(join(dirname(page), file));
      if (!existsSync(join(projectRoot, target))) return true;
      if (anchor === undefined || !target.endsWith('.md')) return false;
      return !headingAnchors(byPath.get(target) ?? readFileSync(join(projectRoot, target), 'utf8')).has(anchor);
    });
    assert.deepEqual(broken, [], 'these links lead nowhere');
  });

  it('names only repository files that exist', () => {
    const found = claims((text) =>
      codeTexts(text)
        .flatMap((code) => code.split(/\s+/))
        .map((word) => word.replace(/[),:;.]+$/, ''))
        .filter((word) => /^(src|test|docs|scripts|media|webview|l10n)\/[\w./-]+$/.test(word) && !word.includes('...')),
    );
    assert.ok(found.length >= 50, 'the pages name files');
    assert.deepEqual(
      found.filter(({ claim }) => !existsSync(join(projectRoot, claim))),
      [],
      'these pages name files that do not exist',
    );
  });
});
