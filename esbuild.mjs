// Builds the bundles: the extension and its lazily loaded runtime (Node, CommonJS, `vscode`
// external), the plan panel's webview (browser IIFE), the core library and the CLI (Node, CommonJS),
// and the JSON Schema of plan files (dist/plan.schema.json, scripts/planSchema.mjs).
// Usage: node esbuild.mjs [--watch] [--production] [--outdir DIR (default dist)]
//        node esbuild.mjs --test-extension DIR: only the test build's extension bundle, as DIR/dist/extension.js
//        (test/integration/testBuild/testExtension.ts: the shipped activation plus the API the integration tests use)
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { writePlanSchema } from './scripts/planSchema.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
/** The value after `flag` on the command line, if any. */
const option = (flag) => {
  const index = process.argv.indexOf(flag);
  return index > 0 ? process.argv[index + 1] : undefined;
};
const testExtension = option('--test-extension');
const outdir = testExtension === undefined ? (option('--outdir') ?? 'dist') : `${testExtension}/dist`;

const require = createRequire(import.meta.url);

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: 'none',
};
// The package's version, which `task-planner --version` prints and traces name their service by (src/cli/cli.ts).
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const node = { ...common, platform: 'node', format: 'cjs', target: 'node20', define: { TASK_PLANNER_VERSION: JSON.stringify(version) } };

// The tokenizer's tables, required on first count (src/core/llm/tokenCount.ts) by the bundles beside it.
const tokenizerBundle = { ...node, entryPoints: [require.resolve('gpt-tokenizer')], outfile: `${outdir}/tokenizer.js` };

/**
 * Modules the CLI requires on first use (a typed `require` where they are needed), each its own bundle beside cli.js: every
 * start of the CLI (the unit tests', the eval harness's and CI jobs' hundreds) then neither reads nor parses them.
 * The HTML-to-Markdown converter (linkedom, domino, Readability, Turndown: 1.4 MB) for fetch_url, the OpenTelemetry
 * SDK (0.6 MB) for sending traces. Each holds pure functions or its own objects: no state shared with cli.js.
 */
const cliSide = { htmlToMarkdown: 'src/node/htmlToMarkdown.ts', otlpTraceExporter: 'src/node/otlpTraceExporter.ts' };

const shipped = [
  { ...node, entryPoints: ['src/extension.ts'], outfile: `${outdir}/extension.js`, external: ['vscode'], lazyRuntime: true },
  // The extension's heavy part (engine, tools, openai, QuickJS, tokenizer, plan panel), required on first use.
  { ...node, entryPoints: ['src/vscode/runtime.ts'], outfile: `${outdir}/runtime.js`, external: ['vscode'], planSchema: true },
  { ...node, entryPoints: ['src/node/nodeLibrary.ts'], outfile: `${outdir}/core.js` },
  { ...node, entryPoints: ['src/cli/cli.ts'], outfile: `${outdir}/cli.js`, banner: { js: '#!/usr/bin/env node' }, cliSideBundles: true },
  // What the CLI requires on first use only (cliSideBundles below), beside it.
  ...Object.entries(cliSide).map(([name, entry]) => ({ ...node, entryPoints: [entry], outfile: `${outdir}/${name}.js` })),
  // The GitHub Action's entry point (action.yml), which runs cli.js beside it.
  { ...node, entryPoints: ['src/cli/actionMain.ts'], outfile: `${outdir}/action.js` },
  tokenizerBundle,
  // The reader threads of search_text (src/node/parallelTextSearcher.ts), started from runtime.js and cli.js beside it.
  { ...node, entryPoints: ['src/node/textSearchWorker.ts'], outfile: `${outdir}/textSearchWorker.js` },
  // The predicate threads (src/node/predicateThreads.ts), started from runtime.js, cli.js and core.js beside it.
  { ...node, entryPoints: ['src/node/predicateWorker.ts'], outfile: `${outdir}/predicateWorker.js` },
  { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: ['webview/main.ts'], outfile: `${outdir}/webview.js` },
];
const testBuild = [
  { ...node, entryPoints: ['test/integration/testBuild/testExtension.ts'], outfile: `${outdir}/extension.js`, external: ['vscode'], lazyRuntime: true, planSchema: true },
  { ...node, entryPoints: ['src/node/textSearchWorker.ts'], outfile: `${outdir}/textSearchWorker.js` },
  { ...node, entryPoints: ['src/node/predicateWorker.ts'], outfile: `${outdir}/predicateWorker.js` },
  tokenizerBundle,
];
const builds = testExtension === undefined ? shipped : testBuild;

/** Prints each bundle's size once a build ends, so growth is visible in every build log. */
const reportSize = (outfile) => ({
  name: 'report-size',
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length === 0) console.log(`[esbuild] ${outfile} ${(statSync(outfile).size / 1024).toFixed(1)} KiB`);
    });
  },
});

// The predicate sandbox (QuickJS) loads `emscripten-module.wasm` from the directory of the
// script that contains its loader, i.e. `dist/` once bundled: ship the file there.
// Its ESM loader needs `import.meta.url`, which a CommonJS bundle lacks, so the CommonJS
// loader (which uses `__dirname`) is bundled instead.
mkdirSync(outdir, { recursive: true });
copyFileSync(require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm'), `${outdir}/emscripten-module.wasm`);
const quickJsCommonJsLoader = {
  name: 'quickjs-commonjs-loader',
  setup(build) {
    build.onResolve({ filter: /^@jitl\/quickjs-wasmfile-release-sync\/emscripten-module$/ }, (args) => ({
      path: require.resolve(args.path),
    }));
  },
};

// src/vscode/loadRuntime.ts requires './runtime': in the extension bundle that stays a
// require of dist/runtime.js, so activation neither parses nor runs the heavy code.
const runtimeExternal = {
  name: 'runtime-external',
  setup(build) {
    build.onResolve({ filter: /^\.\/runtime$/ }, (args) => (args.importer.endsWith('loadRuntime.ts') ? { path: './runtime.js', external: true } : undefined));
  },
};

// src/core/llm/tokenCount.ts requires 'gpt-tokenizer' on first count: in every bundle that stays a require of
// dist/tokenizer.js (built above), so a start that counts no tokens neither reads nor runs its 3 MB of tables.
const tokenizerExternal = {
  name: 'tokenizer-external',
  setup(build) {
    build.onResolve({ filter: /^gpt-tokenizer$/ }, (args) => (args.importer.endsWith('tokenCount.ts') ? { path: './tokenizer.js', external: true } : undefined));
  },
};

// The JSON Schema of *.plan.json files (package.json `jsonValidation`), from the plan's zod schemas: written after
// each build of the bundle that holds them, so `--watch` keeps it in step with the schemas too.
const planSchemaFile = {
  name: 'plan-schema',
  setup(build) {
    build.onEnd(async (result) => {
      if (result.errors.length === 0) await writePlanSchema(outdir);
    });
  },
};

// The CLI's requires of the modules in `cliSide` stay requires of their bundles beside it.
const cliSideBundles = {
  name: 'cli-side-bundles',
  setup(build) {
    for (const name of Object.keys(cliSide)) {
      build.onResolve({ filter: new RegExp(`/${name}$`) }, (args) => (args.kind === 'require-call' ? { path: `./${name}.js`, external: true } : undefined));
    }
  },
};

const contexts = await Promise.all(
  builds.map(({ lazyRuntime, planSchema, cliSideBundles: side, ...options }) =>
    esbuild.context({
      ...options,
      plugins: [
        reportSize(options.outfile),
        quickJsCommonJsLoader,
        tokenizerExternal,
        ...(lazyRuntime ? [runtimeExternal] : []),
        ...(planSchema ? [planSchemaFile] : []),
        ...(side ? [cliSideBundles] : []),
      ],
    }),
  ),
);
if (watch) {
  await Promise.all(contexts.map((context) => context.watch()));
  console.log('[esbuild] watching for changes');
} else {
  try {
    await Promise.all(contexts.map((context) => context.rebuild()));
  } catch {
    process.exitCode = 1;
  } finally {
    await Promise.all(contexts.map((context) => context.dispose()));
  }
}
