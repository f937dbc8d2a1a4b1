import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './importGraph';

interface Manifest {
  version: string;
  icon: string;
  galleryBanner: { color: string; theme: string };
  repository: { type: string; url: string };
  bugs: { url: string };
  homepage: string;
  keywords: string[];
}

const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as Manifest;

describe('architecture: the Marketplace and Open VSX listing', () => {
  it('has a 128×128 PNG icon', () => {
    const png = readFileSync(join(projectRoot, manifest.icon));
    assert.equal(png.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', `${manifest.icon} is not a PNG`);
    assert.equal(png.subarray(12, 16).toString('latin1'), 'IHDR');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
  });

  it('names one repository for the source, the issues and the home page', () => {
    const repository = manifest.repository.url.replace(/\.git$/, '');
    assert.match(repository, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
    assert.equal(manifest.repository.type, 'git');
    assert.equal(manifest.bugs.url, `${repository}/issues`);
    assert.equal(manifest.homepage, `${repository}#readme`);
  });

  it('has a banner, keywords within the Marketplace limit of 30, and a changelog entry for its version', () => {
    assert.match(manifest.galleryBanner.color, /^#[0-9A-Fa-f]{6}$/);
    assert.ok(['dark', 'light'].includes(manifest.galleryBanner.theme));
    assert.ok(manifest.keywords.length > 0 && manifest.keywords.length <= 30);
    assert.match(readFileSync(join(projectRoot, 'CHANGELOG.md'), 'utf8'), new RegExp(`^## ${manifest.version.replace(/\./g, '\\.')} `, 'm'));
  });
});
