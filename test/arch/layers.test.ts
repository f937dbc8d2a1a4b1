import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import { folderCycles, folderGraph, mutualPairs } from './folderGraph';
import { importCycles, readSources, resolveSpecifier, type SourceFile } from './importGraph';

const sources = readSources('src', 'webview');
const isBuiltin = (specifier: string): boolean => specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!);
const inLayer = (file: SourceFile, folder: string): boolean => file.path.startsWith(`${folder}/`);

/** Every import of a file in `folder` that breaks `allowed`, as "file → specifier". */
function violations(folder: string, allowed: (file: SourceFile, specifier: string, target: string | undefined) => boolean): string[] {
  return sources
    .filter((file) => inLayer(file, folder))
    .flatMap((file) => file.specifiers.filter((specifier) => !allowed(file, specifier, resolveSpecifier(file.path, specifier))).map((specifier) => `${file.path} → ${specifier}`));
}

describe('architecture: layers (docs/architecture.md §1)', () => {
  it('reads the sources it checks', () => {
    assert.ok(sources.some((file) => inLayer(file, 'src/core')), 'no core sources found');
    assert.ok(sources.some((file) => inLayer(file, 'webview')), 'no webview sources found');
  });

  it('src/core imports neither vscode, src/vscode, src/cli nor webview', () => {
    assert.deepEqual(violations('src/core', (_, specifier, target) => specifier !== 'vscode' && !/^(src\/vscode|src\/cli|webview)\//.test(target ?? '') && target !== 'src/extension.ts'), []);
  });

  it('src/core reaches Node only through ports: node:path and node:crypto at most', () => {
    assert.deepEqual(violations('src/core', (_, specifier) => !isBuiltin(specifier) || specifier === 'node:path' || specifier === 'node:crypto'), []);
  });

  it('src/core never imports the adapters in src/node (the library entry point src/node/nodeLibrary.ts composes them)', () => {
    assert.deepEqual(violations('src/core', (_, __, target) => !(target ?? '').startsWith('src/node/')), []);
  });

  it('src/core speaks to no model server itself: the openai package is imported only by the adapter in src/node', () => {
    assert.deepEqual(violations('src/core', (_, specifier) => specifier !== 'openai' && !specifier.startsWith('openai/')), []);
  });

  it('src/node imports only src/shared, src/core, src/node, Node and packages: neither vscode, src/vscode, src/cli nor webview', () => {
    assert.deepEqual(violations('src/node', (_, specifier, target) => (target === undefined ? specifier !== 'vscode' : /^src\/(shared|core|node)\//.test(target))), []);
  });

  it('src/shared imports only src/shared and zod: no Node, no DOM, no vscode', () => {
    assert.deepEqual(violations('src/shared', (_, specifier, target) => (target === undefined ? specifier === 'zod' : target.startsWith('src/shared/'))), []);
    const domUse = sources.filter((file) => inLayer(file, 'src/shared') && /\b(document|window|HTMLElement)\b/.test(file.text)).map((file) => file.path);
    assert.deepEqual(domUse, []);
  });

  it('webview imports only src/shared, its own files and browser packages', () => {
    assert.deepEqual(violations('webview', (_, specifier, target) => (target === undefined ? !isBuiltin(specifier) && specifier !== 'vscode' : target.startsWith('webview/') || target.startsWith('src/shared/'))), []);
  });

  it('vscode is imported only in src/vscode and src/extension.ts', () => {
    const importers = sources.filter((file) => file.specifiers.includes('vscode')).map((file) => file.path);
    assert.deepEqual(importers.filter((path) => !path.startsWith('src/vscode/') && path !== 'src/extension.ts'), []);
  });

  it('has no import cycles', () => {
    assert.deepEqual(importCycles(sources), []);
  });

  it('the first-level folders of src/core form no cycle: no two import each other, directly or around (`npx tsx test/arch/coreFolderGraph.ts` prints the graph)', () => {
    const graph = folderGraph(sources, 'src/core');
    assert.deepEqual(mutualPairs(graph), []);
    assert.deepEqual(folderCycles(graph), []);
  });

  it('has no barrel index.ts files and no default exports', () => {
    assert.deepEqual(sources.filter((file) => /(^|\/)index\.ts$/.test(file.path)).map((file) => file.path), []);
    assert.deepEqual(sources.filter((file) => /^\s*export\s+default\b/m.test(file.text)).map((file) => file.path), []);
  });

  it('uses camelCase file names', () => {
    assert.deepEqual(sources.filter((file) => !/^[a-z][A-Za-z0-9]*\.ts$/.test(file.path.split('/').pop()!)).map((file) => file.path), []);
  });

  it('keeps the core deterministic: no Date.now, Math.random or timers anywhere in src/core (time comes from the Clock port)', () => {
    const offenders = sources
      .filter((file) => inLayer(file, 'src/core'))
      .filter((file) => /\b(Date\.now|Math\.random|setTimeout|setInterval)\s*\(/.test(file.text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')))
      .map((file) => file.path);
    assert.deepEqual(offenders, []);
  });
});

describe('architecture: the checker itself', () => {
  it('finds static, type-only, dynamic and re-export imports', () => {
    const extension = sources.find((file) => file.path === 'src/extension.ts');
    assert.ok(extension?.specifiers.includes('vscode'));
    const coreApi = sources.find((file) => file.path === 'src/core/coreApi.ts');
    assert.ok(coreApi?.specifiers.includes('./plan/parsePlan'), 're-exports must be seen');
    const library = sources.find((file) => file.path === 'src/node/nodeLibrary.ts');
    assert.ok(library?.specifiers.includes('../core/coreApi'), 'export * must be seen');
  });

  it('detects an import cycle', () => {
    const fake = (path: string, target: string): SourceFile => ({ path, text: '', specifiers: [target] });
    assert.deepEqual(importCycles([fake('src/core/a.ts', './b'), fake('src/core/b.ts', './a')]), [['src/core/a.ts', 'src/core/b.ts', 'src/core/a.ts']]);
    assert.deepEqual(importCycles([fake('src/core/a.ts', './b'), fake('src/core/b.ts', 'zod')]), []);
  });

  it('detects folders that import each other, directly and around a longer cycle, and counts the imports', () => {
    const fake = (path: string, ...specifiers: string[]): SourceFile => ({ path, text: '', specifiers });
    const mutual = folderGraph([fake('src/core/a/x.ts', '../b/y', '../b/z', './w'), fake('src/core/b/y.ts', '../a/x'), fake('src/core/b/z.ts'), fake('src/core/a/w.ts')], 'src/core');
    assert.deepEqual(mutualPairs(mutual), ['a↔b 2/1']);
    assert.deepEqual(folderCycles(mutual), [['a', 'b', 'a']]);
    const around = folderGraph([fake('src/core/a/x.ts', '../b/y'), fake('src/core/b/y.ts', '../c/z'), fake('src/core/c/z.ts', '../a/x', '../ports')], 'src/core');
    assert.deepEqual(mutualPairs(around), []);
    assert.deepEqual(folderCycles(around), [['a', 'b', 'c', 'a']]);
    const layered = folderGraph([fake('src/core/a/x.ts', '../b/y'), fake('src/core/b/y.ts', '../../shared/s'), fake('src/core/coreApi.ts', './a/x')], 'src/core');
    assert.deepEqual(folderCycles(layered), []);
  });
});
