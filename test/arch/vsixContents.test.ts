import assert from 'node:assert/strict';
import { listZip, type ZipEntry } from '../support/listZip';
import { maxVsixBytes, vsixProblems } from './vsixContents';

/** The files of the package as `npm run package` makes it (vsce 3.9). */
const shipped: ZipEntry[] = [
  '[Content_Types].xml',
  'extension.vsixmanifest',
  'extension/LICENSE.txt',
  'extension/changelog.md',
  'extension/package.json',
  'extension/package.nls.json',
  'extension/l10n/bundle.l10n.json',
  'extension/readme.md',
  'extension/dist/emscripten-module.wasm',
  'extension/dist/extension.js',
  'extension/dist/runtime.js',
  'extension/dist/webview.js',
  'extension/dist/textSearchWorker.js',
  'extension/dist/predicateWorker.js',
  'extension/dist/tokenizer.js',
  'extension/dist/plan.schema.json',
  'extension/media/icon.png',
  'extension/media/taskPlanner.svg',
  'extension/media/walkthrough/planTask.md',
].map((name) => ({ name, size: 1 }));

/**
 * A zip archive's tail as `listZip` reads it: `lead` bytes standing for the local file
 * records, one central directory entry per file (with `extra` bytes of extra field), then
 * the end record with `comment`.
 */
function zipOf(entries: ZipEntry[], options: { lead?: number; extra?: number; comment?: string } = {}): Buffer {
  const lead = Buffer.alloc(options.lead ?? 64, 0x41);
  const records = entries.map((entry) => {
    const name = Buffer.from(entry.name, 'utf8');
    const record = Buffer.alloc(46 + name.length + (options.extra ?? 0));
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt32LE(Math.floor(entry.size / 3), 20);
    record.writeUInt32LE(entry.size, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt16LE(options.extra ?? 0, 30);
    name.copy(record, 46);
    return record;
  });
  const directory = Buffer.concat(records);
  const comment = Buffer.from(options.comment ?? '', 'utf8');
  const end = Buffer.alloc(22 + comment.length);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(lead.length, 16);
  end.writeUInt16LE(comment.length, 20);
  comment.copy(end, 22);
  return Buffer.concat([lead, directory, end]);
}

describe('architecture: the .vsix allowlist', () => {
  it('accepts the package as vsce makes it', () => {
    assert.deepEqual(vsixProblems(shipped, 1_900_000), []);
  });

  it('names every file that must never ship: secrets, fixtures, source maps, sources, dependencies, the test host, run journals', () => {
    const leaked = [
      'extension/.env',
      '.env',
      'extension/test/fixtures/notes.plan.json',
      'extension/dist/extension.js.map',
      'extension/dist/runtime.js.map',
      'extension/dist/cli.js',
      'extension/src/extension.ts',
      'extension/node_modules/zod/package.json',
      'extension/test/host/.cache/ms-playwright/chromium/chrome',
      'extension/.cache/code-server/bin',
      'extension/.task-planner/runs/run-1.jsonl',
      'extension/media/.env',
      'extension/media/walkthrough/../../.env',
      'extension/media/walkthrough/setUp.js',
      'extension/task-planner.vsix',
      'extension/.vscodeignore',
    ];
    const problems = vsixProblems([...shipped, ...leaked.map((name) => ({ name, size: 10 }))], 1_900_000);
    assert.deepEqual(problems, leaked.map((name) => `${name} is not on the allowlist`));
  });

  it('names a required file that is missing, so an empty package cannot pass', () => {
    assert.deepEqual(vsixProblems(shipped.filter((entry) => !entry.name.endsWith('/runtime.js') && !entry.name.endsWith('/icon.png')), 1_000), [
      'extension/dist/runtime.js is missing',
      'extension/media/icon.png is missing',
    ]);
    assert.equal(vsixProblems([], 22).length, 14);
  });

  it('refuses a package over 3 MB and accepts one of exactly 3 MB', () => {
    assert.equal(maxVsixBytes, 3_000_000);
    assert.deepEqual(vsixProblems(shipped, 3_000_000), []);
    assert.deepEqual(vsixProblems(shipped, 3_000_001), ['the package is 3000001 bytes, over the 3000000 allowed']);
  });

  it('accepts translations of the texts beside the English ones, and nothing else in l10n/', () => {
    const translated = ['extension/package.nls.de.json', 'extension/l10n/bundle.l10n.pt-br.json', 'extension/l10n/bundle.l10n.zh-cn.json'];
    assert.deepEqual(vsixProblems([...shipped, ...translated.map((name) => ({ name, size: 1 }))], 1_000), []);
    const strays = ['extension/l10n/notes.json', 'extension/package.nls.json.bak'];
    assert.deepEqual(
      vsixProblems([...shipped, ...strays.map((name) => ({ name, size: 1 }))], 1_000),
      strays.map((name) => `${name} is not on the allowlist`),
    );
  });

  it('ignores folder entries', () => {
    assert.deepEqual(vsixProblems([...shipped, { name: 'extension/dist/', size: 0 }], 1_000), []);
  });
});

describe('architecture: listing a zip archive', () => {
  it('lists every file of the central directory with its uncompressed size, in order', () => {
    const entries = [
      { name: 'extension/package.json', size: 28_913 },
      { name: 'extension/media/walkthrough/ünïcode.md', size: 0 },
      { name: 'extension/dist/runtime.js', size: 3_948_000 },
    ];
    assert.deepEqual(listZip(zipOf(entries)), entries);
  });

  it('skips extra fields and finds the end record behind an archive comment', () => {
    const entries = [{ name: 'a.txt', size: 5 }, { name: 'b/c.txt', size: 7 }];
    assert.deepEqual(listZip(zipOf(entries, { extra: 9, comment: 'made by a test' })), entries);
  });

  it('refuses what is not a zip archive, and a cut or damaged one, in words', () => {
    assert.throws(() => listZip(Buffer.from('PK not really a zip file, just text that is long enough')), /not a zip archive/);
    assert.throws(() => listZip(Buffer.alloc(10)), /not a zip archive/);
    const archive = zipOf([{ name: 'a.txt', size: 5 }]);
    const cut = Buffer.concat([archive.subarray(0, 20), archive.subarray(archive.length - 22)]);
    assert.throws(() => listZip(cut), /cut short or damaged/);
    const damaged = Buffer.from(archive);
    damaged.writeUInt32LE(0, 64);
    assert.throws(() => listZip(damaged), /central directory entry 1 of 1 is damaged/);
  });
});
