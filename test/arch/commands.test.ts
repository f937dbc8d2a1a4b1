import assert from 'node:assert/strict';
import { readSources } from './importGraph';
import { readResolvedManifest } from './resolvedManifest';

interface Manifest {
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus?: Record<string, { command: string }[]>;
    views?: Record<string, { id: string }[]>;
    viewsWelcome?: { view: string; contents: string }[];
  };
}

const manifest = readResolvedManifest() as Manifest;
const contributed = manifest.contributes.commands.map((command) => command.command);
const sourceText = readSources('src').map((file) => file.text).join('\n');
const registered = [...sourceText.matchAll(/registerCommand\(\s*['"]([\w.]+)['"]/g)].map((match) => match[1]!);

describe('architecture: contributions match the code', () => {
  it('finds contributed and registered commands', () => {
    assert.ok(contributed.includes('taskPlanner.planTask'));
    assert.ok(registered.length > 0);
  });

  it('every contributed command has a handler', () => {
    assert.deepEqual(contributed.filter((command) => !registered.includes(command)), []);
  });

  it('every registered command is contributed', () => {
    assert.deepEqual(registered.filter((command) => !contributed.includes(command)), []);
  });

  it('every menu entry and welcome link names a contributed command', () => {
    const menuCommands = Object.values(manifest.contributes.menus ?? {}).flat().map((entry) => entry.command);
    const welcomeCommands = (manifest.contributes.viewsWelcome ?? []).flatMap((entry) => [...entry.contents.matchAll(/command:([\w.]+)/g)].map((match) => match[1]!));
    assert.deepEqual([...menuCommands, ...welcomeCommands].filter((command) => !contributed.includes(command)), []);
  });

  it('every contributed command has a title and the Task Planner category', () => {
    assert.deepEqual(manifest.contributes.commands.filter((command) => !command.title || command.category !== 'Task Planner').map((command) => command.command), []);
  });

  it('every tree view registered in code is contributed', () => {
    const views = Object.values(manifest.contributes.views ?? {}).flat().map((view) => view.id);
    const used = [...sourceText.matchAll(/(?:registerTreeDataProvider|createTreeView)\(\s*['"]([\w.]+)['"]/g)].map((match) => match[1]!);
    assert.ok(used.length > 0);
    assert.deepEqual(used.filter((id) => !views.includes(id)), []);
  });
});
