#!/usr/bin/env node
// The type checks and the lint in one process over one set of TypeScript programs: what `tsc -p` gives for the test
// program (src and the tests), the webview and the end-to-end harness (test/host), then `eslint .` with those programs
// (eslint.config.mjs, `typedProjects`) instead of programs of its own. Apart, tsc and ESLint's type-checked rules each
// parsed, bound and checked the same files: 41 and 83 CPU-s; together 90 CPU-s (2026-12-07, this 2-core machine).
// Prints what tsc and `eslint .` print; exits 1 when either found an error. `npm run check-types` and `npm run lint`
// stay as they were. Usage: node scripts/typesAndLint.mjs
import { ESLint } from 'eslint';
import ts from 'typescript';
import { typedProjects } from '../eslint.config.mjs';

/** The projects whose errors tsc reports here: src alone is not one, the test program type-checks it with the tests. */
const checkedProjects = new Set(['./test/tsconfig.json', './webview/tsconfig.json', './test/host/tsconfig.json']);
const cpuSeconds = (since) => {
  const used = process.cpuUsage(since);
  return Math.round((used.user + used.system) / 1e6);
};

const started = process.cpuUsage();
/** @type {ts.FormatDiagnosticsHost} */
const formatHost = { getCanonicalFileName: (name) => name, getCurrentDirectory: ts.sys.getCurrentDirectory, getNewLine: () => ts.sys.newLine };
const print = (diagnostics) => {
  if (diagnostics.length === 0) return;
  const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  process.stdout.write(format(diagnostics, formatHost));
};

let typeErrors = 0;
const programs = typedProjects.map((project) => {
  /** @type {ts.Diagnostic[]} */
  const configErrors = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(project, { noEmit: true }, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => configErrors.push(diagnostic),
  });
  if (!parsed) {
    print(configErrors);
    throw new Error(`${project} cannot be read`);
  }
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });
  if (checkedProjects.has(project)) {
    const diagnostics = [...parsed.errors, ...ts.getPreEmitDiagnostics(program)];
    print(diagnostics);
    const errors = diagnostics.filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error).length;
    console.log(`tsc -p ${project}: ${errors === 0 ? 'no errors' : `${errors} error${errors === 1 ? '' : 's'}`}`);
    typeErrors += errors;
  }
  return program;
});
console.log(`types checked (${cpuSeconds(started)} CPU-s)`);

const eslint = new ESLint({ overrideConfig: { languageOptions: { parserOptions: { project: null, programs } } } });
const results = await eslint.lintFiles(['.']);
const formatted = await (await eslint.loadFormatter('stylish')).format(results);
if (formatted) console.log(formatted);
const lintErrors = results.reduce((sum, result) => sum + result.errorCount, 0);
console.log(`eslint: ${results.length} files, ${lintErrors === 0 ? 'no errors' : `${lintErrors} error${lintErrors === 1 ? '' : 's'}`} (${cpuSeconds(started)} CPU-s in all)`);
process.exit(typeErrors + lintErrors > 0 ? 1 : 0);
