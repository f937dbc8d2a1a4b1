// What a mutation group's result depends on, as one digest: when it is the digest recorded beside the group's committed
// result (test/mutation/incremental/<group>.inputs), that result is the result of a run now, and npm test reads it
// instead of starting Stryker (scripts/mutation.mjs).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { globSync } from 'tinyglobby';

/** Files every group's run reads besides its modules and tests: the runner's configuration, the installed versions. */
const sharedInputs = ['stryker.config.mjs', 'package-lock.json', 'tsconfig.json', 'test/mutation/mochaCjsPaths.cjs'];

/** Relative module specifiers of a source text: static and dynamic imports, re-exports and require calls. */
const specifierPatterns = [
  /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/g,
  /\bimport\s*['"](\.{1,2}\/[^'"]+)['"]/g,
  /\b(?:import|require)\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g,
];

/** Extensions tried, in order, for a specifier that names no file itself (TypeScript's `./x` and `./x.js` for `x.ts`). */
const candidates = (base) => [base, `${base}.ts`, `${base}.tsx`, `${base}.mts`, `${base}.cts`, `${base}.mjs`, `${base}.cjs`, `${base}.js`, `${base}.json`,
  base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base.replace(/\.cjs$/, '.cts'), join(base, 'index.ts')];

/** The file a relative specifier of `from` names, or undefined (a specifier of a file outside the repository, or none). */
function resolveSpecifier(root, from, specifier) {
  for (const path of candidates(resolve(dirname(from), specifier))) {
    if (path.startsWith(`${root}/`) && existsSync(path) && statSync(path).isFile()) return path;
  }
  return undefined;
}

/**
 * The digest (sha256, hex) of everything a run of `group` reads from the repository: the group's definition, the files it
 * mutates, its test files, every file those import through relative paths (transitively: the fakes, the support code, the
 * modules the tests reach), the test fixtures (read at run time by path), and the runner's configuration and lockfile.
 * Paths and contents both count, so a renamed, added or removed file changes it.
 * @param {string} root  the repository's folder
 * @param {{ name: string; mutate: readonly string[]; spec: readonly string[] }} group
 * @returns {string}
 */
export function mutationInputsDigest(root, group) {
  const start = [
    ...globSync([...group.mutate], { cwd: root, absolute: true }),
    ...globSync([...group.spec], { cwd: root, absolute: true }),
    ...globSync(['test/fixtures/**'], { cwd: root, absolute: true, dot: true }),
    ...sharedInputs.map((path) => join(root, path)).filter((path) => existsSync(path)),
  ];
  const seen = new Set();
  const queue = [...start];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    if (!/\.(?:[cm]?[jt]sx?)$/.test(file)) continue;
    const text = readFileSync(file, 'utf8');
    for (const pattern of specifierPatterns) {
      for (const match of text.matchAll(pattern)) {
        const imported = resolveSpecifier(root, file, match[1]);
        if (imported && !seen.has(imported)) queue.push(imported);
      }
    }
  }
  const hash = createHash('sha256');
  hash.update(JSON.stringify(group));
  for (const file of [...seen].sort()) {
    hash.update(`\0${relative(root, file)}\0`);
    hash.update(readFileSync(file));
  }
  return hash.digest('hex');
}
