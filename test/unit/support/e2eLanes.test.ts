import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { e2eLanes } from '../../e2e/e2eLanes.mjs';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const e2eFolder = resolve(__dirname, '..', '..', 'e2e');

describe('e2eLanes (npm test runs the end-to-end files in two processes at once)', () => {
  const folder = temporaryDirectory('e2e-lanes-');

  it('puts every end-to-end file in exactly one lane, each lane in name order', () => {
    const lanes = e2eLanes(e2eFolder, 2);
    assert.equal(lanes.length, 2);
    const placed = lanes.flat().map((file) => basename(file));
    assert.deepEqual([...placed].sort(), readdirSync(e2eFolder).filter((name) => name.endsWith('.test.ts')).sort());
    assert.equal(new Set(placed).size, placed.length, 'a file in two lanes');
    for (const lane of lanes) assert.deepEqual(lane, [...lane].sort());
  });

  it('gives the longest files to different lanes, and a file it has no figure for a lane too', () => {
    for (const name of ['accessibility.test.ts', 'otherWindow.test.ts', 'npmStart.test.ts', 'brandNew.test.ts', 'helper.ts']) writeFileSync(join(folder.path, name), '');
    const lanes = e2eLanes(folder.path, 2).map((lane) => lane.map((file) => basename(file)));
    assert.deepEqual(lanes.flat().sort(), ['accessibility.test.ts', 'brandNew.test.ts', 'npmStart.test.ts', 'otherWindow.test.ts']);
    assert.notDeepEqual(lanes.map((lane) => lane.includes('accessibility.test.ts')), lanes.map((lane) => lane.includes('otherWindow.test.ts')));
  });

  it('leaves no lane empty when there are fewer files than lanes', () => {
    writeFileSync(join(folder.path, 'only.test.ts'), '');
    assert.deepEqual(e2eLanes(folder.path, 2), [[join(folder.path, 'only.test.ts')]]);
  });
});
