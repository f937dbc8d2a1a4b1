import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planFileSchemaText } from '../../src/core/plan/planFileSchema';
import { planSchemaFileName, writePlanSchema } from '../../scripts/planSchema.mjs';

interface Manifest {
  contributes: { jsonValidation?: { fileMatch: string | string[]; url: string }[] };
}

describe('architecture: the JSON Schema of plan files', function () {
  this.timeout(60_000);
  const folder = mkdtempSync(join(tmpdir(), 'task-planner-schema-'));
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('the build writes exactly the schema the zod schemas make now', async () => {
    const written = await writePlanSchema(folder);
    assert.equal(written, join(folder, planSchemaFileName));
    assert.equal(readFileSync(written, 'utf8'), planFileSchemaText());
  });

  it('the manifest applies it to every *.plan.json file, from the folder the build writes to', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest;
    assert.deepEqual(manifest.contributes.jsonValidation, [{ fileMatch: '*.plan.json', url: `./dist/${planSchemaFileName}` }]);
  });

  it('the package lets it through (.vscodeignore is an allowlist)', () => {
    const ignore = readFileSync('.vscodeignore', 'utf8').split('\n');
    assert.ok(ignore.includes(`!dist/${planSchemaFileName}`));
  });
});
