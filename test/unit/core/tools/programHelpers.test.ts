import assert from 'node:assert/strict';
import { helperLookup, programsWithHelpers } from '../../../../src/core/tools/programHelpers';

describe('helperLookup: the helper git or cargo runs for a subcommand', () => {
  it('names git-<subcommand> and cargo-<subcommand>, whatever path or suffix the program has', () => {
    assert.deepEqual(helperLookup(['git', 'lfs', 'pull']), { name: 'git-lfs', program: 'git', subcommand: 'lfs', inFolder: false });
    assert.deepEqual(helperLookup(['cargo', 'fmt', '--check']), { name: 'cargo-fmt', program: 'cargo', subcommand: 'fmt', inFolder: false });
    assert.equal(helperLookup(['/usr/bin/git', 'lfs'])?.name, 'git-lfs');
    assert.equal(helperLookup(['.venv/bin/git', 'lfs'])?.name, 'git-lfs');
    assert.equal(helperLookup(['GIT.EXE', 'lfs'])?.name, 'git-lfs');
  });

  it('skips the options before the subcommand, and the word after one that takes a value', () => {
    assert.equal(helperLookup(['git', '-C', 'sub', '-c', 'core.pager=cat', '--no-pager', 'lfs', 'pull'])?.name, 'git-lfs');
    assert.equal(helperLookup(['git', '--git-dir', 'lfs', 'status'])?.name, 'git-status');
    assert.equal(helperLookup(['cargo', '+nightly', '--config', 'x=1', '-Z', 'unstable', 'fmt'])?.name, 'cargo-fmt');
  });

  it('says when the subcommand names a folder: git then runs a file relative to its working folder', () => {
    assert.deepEqual(helperLookup(['git', 'x/y']), { name: 'git-x/y', program: 'git', subcommand: 'x/y', inFolder: true });
    assert.equal(helperLookup(['cargo', 'a\\b'])?.inFolder, true);
  });

  it('names nothing for other programs, a program alone, only options, or an empty subcommand', () => {
    assert.equal(helperLookup(['npm', 'test']), undefined);
    assert.equal(helperLookup(['gitk', 'lfs']), undefined);
    assert.equal(helperLookup(['git']), undefined);
    assert.equal(helperLookup(['git', '--version']), undefined);
    assert.equal(helperLookup(['git', '-C']), undefined);
    assert.equal(helperLookup(['git', '']), undefined);
  });

  it('takes the word after each option that has a value as that value, for every such option of git and cargo', () => {
    for (const option of programsWithHelpers.git ?? []) assert.equal(helperLookup(['git', option, 'value', 'lfs'])?.name, 'git-lfs', option);
    for (const option of programsWithHelpers.cargo ?? []) assert.equal(helperLookup(['cargo', option, 'value', 'fmt'])?.name, 'cargo-fmt', option);
    assert.deepEqual(Object.keys(programsWithHelpers), ['git', 'cargo']);
    assert.equal((programsWithHelpers.git ?? []).length + (programsWithHelpers.cargo ?? []).length, 13, 'an option with a value left out of the test');
  });

  it("skips a toolchain (+nightly) only as cargo's first word, as rustup reads it", () => {
    assert.equal(helperLookup(['git', '+x', 'lfs'])?.name, 'git-+x');
    assert.equal(helperLookup(['cargo', '--color', 'always', '+nightly', 'fmt'])?.name, 'cargo-+nightly');
    assert.equal(helperLookup(['cargo', '+nightly', 'fmt'])?.name, 'cargo-fmt');
  });
});
