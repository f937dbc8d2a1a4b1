// Writes the JSON Schema of plan files (`*.plan.json`) that the manifest's `jsonValidation`
// names: generated from the plan's zod schemas (src/core/plan/planFileSchema.ts), so it
// never drifts from what a run accepts. Called by esbuild.mjs on every build.
import * as esbuild from 'esbuild';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInThisContext } from 'node:vm';

/** The schema file's name in the build's output folder. */
export const planSchemaFileName = 'plan.schema.json';

/**
 * Bundles planFileSchema.ts (with zod) in memory, runs it, and writes its
 * `planFileSchemaText()` to `outdir/plan.schema.json`; resolves to the path written.
 */
export async function writePlanSchema(outdir) {
  const bundled = await esbuild.build({
    entryPoints: ['src/core/plan/planFileSchema.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'warning',
  });
  const module = { exports: {} };
  runInThisContext(`(function (module, exports) {${bundled.outputFiles[0].text}\n})`)(module, module.exports);
  const path = join(outdir, planSchemaFileName);
  writeFileSync(path, module.exports.planFileSchemaText());
  return path;
}
