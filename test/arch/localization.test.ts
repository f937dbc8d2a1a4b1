import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot, readSources } from './importGraph';
import { callProblem, l10nCalls, unlocalizedTexts } from './localizedTexts';
import { readManifestStrings } from './resolvedManifest';

/** The sources whose texts reach the user through VS Code: the editor adapters and the activation. */
const editorSources = readSources('src').filter((file) => file.path.startsWith('src/vscode/') || file.path === 'src/extension.ts');
const committedBundle = JSON.parse(readFileSync(join(projectRoot, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;

describe('architecture: localization of the editor texts', () => {
  it('sends every text the user reads in src/vscode through vscode.l10n.t', () => {
    assert.ok(editorSources.length > 30);
    const findings = editorSources.flatMap((file) => unlocalizedTexts(file.path, file.text)).map((finding) => `${finding.where}: ${finding.problem}`);
    assert.deepEqual(findings, [], `wrap these in vscode.l10n.t('Text with {0}', arg), then run npm run l10n:\n${findings.join('\n')}`);
  });

  it('gives l10n.t literal messages whose {0}, {1}… match their arguments', () => {
    const calls = editorSources.flatMap((file) => l10nCalls(file.path, file.text));
    assert.ok(calls.length > 150, `only ${calls.length} l10n.t calls found`);
    const problems = calls.flatMap((call) => {
      const problem = callProblem(call);
      return problem === undefined ? [] : [`${call.where}: ${problem}`];
    });
    assert.deepEqual(problems, [], problems.join('\n'));
  });

  it('has every l10n.t message in the committed bundle l10n/bundle.l10n.json', () => {
    const missing = editorSources.flatMap((file) =>
      l10nCalls(file.path, file.text).flatMap((call) =>
        call.message !== undefined && !(call.message in committedBundle) ? [`${call.where}: ${call.message}`] : [],
      ),
    );
    assert.deepEqual(missing, [], `run npm run l10n and commit l10n/bundle.l10n.json; missing:\n${missing.join('\n')}`);
  });

  it('commits the bundle exactly as @vscode/l10n-dev exports it from src/ now (nothing missing, nothing stale)', function () {
    this.timeout(180_000);
    const folder = mkdtempSync(join(tmpdir(), 'task-planner-l10n-'));
    try {
      const cli = join(projectRoot, 'node_modules', '@vscode', 'l10n-dev', 'dist', 'cli.js');
      const exported = spawnSync(process.execPath, [cli, 'export', '--outDir', folder, './src'], { cwd: projectRoot, encoding: 'utf8' });
      assert.equal(exported.status, 0, `${exported.stdout}${exported.stderr}`);
      const fresh = JSON.parse(readFileSync(join(folder, 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
      const missing = Object.keys(fresh).filter((key) => committedBundle[key] !== fresh[key]);
      const stale = Object.keys(committedBundle).filter((key) => !(key in fresh));
      assert.deepEqual({ missing, stale }, { missing: [], stale: [] }, 'run npm run l10n and commit l10n/bundle.l10n.json');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

/** Fields of a contribution that a user reads (the model-facing ones of language model tools are left out below). */
const shownFields = new Set([
  'title',
  'shortTitle',
  'category',
  'contextualTitle',
  'description',
  'markdownDescription',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'deprecationMessage',
  'markdownDeprecationMessage',
  'contents',
  'displayName',
  'userDescription',
  'fullName',
  'altText',
]);
/** Subtrees written for a model, not shown to the user: tools' JSON Schemas and descriptions, chat participants' routing hints. */
const modelFacingFields = new Set(['inputSchema', 'modelDescription', 'disambiguation']);

/** Each shown string of `value` at `path` (a view's `name` included), with its path. */
function shownStrings(value: unknown, path: string[] = []): { path: string; text: string }[] {
  const last = path.at(-1) ?? '';
  const field = /^\d+$/.test(last) ? (path.at(-2) ?? '') : last;
  if (typeof value === 'string') {
    const inView = path[0] === 'contributes' && path[1] === 'views' && last === 'name';
    return shownFields.has(field) || inView ? [{ path: path.join('.'), text: value }] : [];
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => shownStrings(item, [...path, String(index)]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => (modelFacingFields.has(key) ? [] : shownStrings(inner, [...path, key])));
  }
  return [];
}

describe('architecture: localization of the manifest', () => {
  const manifestText = readFileSync(join(projectRoot, 'package.json'), 'utf8');
  const manifest = JSON.parse(manifestText) as { l10n?: string; contributes: unknown; capabilities: unknown };
  const strings = readManifestStrings();
  const keys = [...manifestText.matchAll(/"%([^%"]+)%"/g)].map((match) => match[1]!);

  it('names the bundle folder, and has a text in package.nls.json for every %key% of package.json', () => {
    assert.equal(manifest.l10n, './l10n');
    assert.ok(keys.length > 90, `only ${keys.length} %key% references`);
    assert.deepEqual(
      keys.filter((key) => typeof strings[key] !== 'string' || strings[key].trim() === ''),
      [],
    );
  });

  it('uses every text of package.nls.json (no text a translator would translate for nothing)', () => {
    const used = new Set(keys);
    assert.deepEqual(
      Object.keys(strings).filter((key) => !used.has(key)),
      [],
    );
  });

  it('takes every title, description, view name, welcome text and walkthrough text of contributes from package.nls.json', () => {
    const shown = shownStrings({ contributes: manifest.contributes, capabilities: manifest.capabilities });
    assert.ok(shown.length > 100, `only ${shown.length} shown strings found`);
    const plain = shown.filter((entry) => !/^%[^%]+%$/.test(entry.text)).map((entry) => `${entry.path}: ${entry.text.slice(0, 80)}`);
    assert.deepEqual(plain, [], `move these to package.nls.json and refer to them as "%key%":\n${plain.join('\n')}`);
  });
});

describe('architecture: the localization checks find what they are for', () => {
  const source = (lines: string[]): string => lines.join('\n');

  it('names file:line of a raw message, button, title, prompt, label, tooltip and validation message', () => {
    const findings = unlocalizedTexts(
      'src/vscode/example.ts',
      source([
        "void vscode.window.showInformationMessage('Task Planner: saved.');",
        "void vscode.window.showWarningMessage(vscode.l10n.t('Resume the run?'), 'Resume');",
        'void vscode.window.showErrorMessage(`Task Planner: ${reason}`);',
        "picker.title = 'Review the plan';",
        "void vscode.window.showInputBox({ prompt: vscode.l10n.t('Name'), validateInput: (v) => (v ? undefined : 'Enter a name') });",
        "const item = new vscode.TreeItem(done ? 'Done' : vscode.l10n.t('Waiting'));",
        "item.tooltip = vscode.l10n.t('Step {0}', id) + ' waits';",
        "void vscode.window.withProgress({ title: 'Planning…', location }, work);",
        "const panel = vscode.window.createWebviewPanel('type', `Plan ${name}`, column);",
      ]),
    );
    assert.deepEqual(
      findings.map((finding) => finding.where),
      ['example.ts:1', 'example.ts:2', 'example.ts:3', 'example.ts:4', 'example.ts:5', 'example.ts:6', 'example.ts:7', 'example.ts:8', 'example.ts:9'].map(
        (where) => `src/vscode/${where}`,
      ),
    );
    assert.match(findings[1]?.problem ?? '', /showWarningMessage text is not localized: 'Resume'/);
  });

  it('accepts localized texts, icons, log lines, command ids, setting keys and model-facing schemas', () => {
    const findings = unlocalizedTexts(
      'src/vscode/example.ts',
      source([
        "void vscode.window.showInformationMessage(vscode.l10n.t('Task Planner: {0}', message), vscode.l10n.t('Retry'));",
        'void vscode.window.showWarningMessage(message, ...buttons);',
        "log.info('Planning with the model');",
        "void vscode.commands.executeCommand('taskPlanner.planTask');",
        "const model = vscode.workspace.getConfiguration('taskPlanner').get('llm.model');",
        "this.item.text = `$(${icon}) ${vscode.l10n.t('Task Planner: {0}', what)}`;",
        "const items = [{ label: `$(${severity === 'critical' ? 'error' : 'info'}) ${issue.name}: ${issue.message}` }, { label: `$(sync~spin) ${step}` }];",
        "const tool = { inputSchema: { properties: { id: { description: 'Id of the step' } } } };",
        'item.description = ` ${node.description}`;',
      ]),
    );
    assert.deepEqual(findings, []);
  });

  it('refuses a message l10n-dev cannot extract and placeholders that do not match the arguments', () => {
    const calls = l10nCalls(
      'src/vscode/example.ts',
      source([
        "vscode.l10n.t('Step {0} of {1}', index, total);",
        'vscode.l10n.t(`Step ${index}`);',
        "vscode.l10n.t('Step {0} of {1}', index);",
        "vscode.l10n.t('Step {0}', index, total);",
        'l10n.t(message);',
      ]),
    );
    assert.deepEqual(
      calls.map((call) => [call.where, callProblem(call)?.replace(/:.*/, '') ?? 'ok']),
      [
        ['src/vscode/example.ts:1', 'ok'],
        ['src/vscode/example.ts:2', 'the message is not a string literal'],
        ['src/vscode/example.ts:3', '"Step {0} of {1}" has {1} but only 1 argument(s)'],
        ['src/vscode/example.ts:4', '"Step {0}" never shows argument(s) 1'],
        ['src/vscode/example.ts:5', 'the message is not a string literal'],
      ],
    );
  });

  it('finds a plain string among the shown fields of the manifest, and leaves model-facing ones alone', () => {
    const shown = shownStrings({
      contributes: {
        commands: [{ command: 'taskPlanner.x', title: 'Plan task', category: '%productName%' }],
        views: { taskPlanner: [{ id: 'taskPlanner.plan', name: 'Plan' }] },
        languageModelTools: [
          { name: 'tool', displayName: '%tool%', modelDescription: 'For the model', inputSchema: { properties: { id: { description: 'Id' } } } },
        ],
        configuration: { properties: { 'taskPlanner.a': { enumDescriptions: ['%a%', 'Plain'] } } },
      },
    });
    assert.deepEqual(
      shown.filter((entry) => !entry.text.startsWith('%')).map((entry) => entry.path),
      ['contributes.commands.0.title', 'contributes.views.taskPlanner.0.name', 'contributes.configuration.properties.taskPlanner.a.enumDescriptions.1'],
    );
  });
});
