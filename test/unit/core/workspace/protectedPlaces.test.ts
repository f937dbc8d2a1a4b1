import assert from 'node:assert/strict';
import { isProtectedPath, isProtectedSegment, protectedPlaceReason } from '../../../../src/core/workspace/protectedPlaces';

describe('protectedPlaces', () => {
  it('protects .git in any letter case, and nothing that only looks like it', () => {
    assert.deepEqual(['.git', '.GIT', '.Git'].map(isProtectedSegment), [true, true, true]);
    // Windows drops trailing dots and spaces: each of these opens .git there (2026-12-03).
    assert.deepEqual(['.git.', '.git ', '.GIT. .', '.task-planner.'].map(isProtectedSegment), [true, true, true, true]);
    assert.deepEqual(['.github', 'git', '.gitignore', 'x.git', '.gi', ''].map(isProtectedSegment), [false, false, false, false, false, false]);
  });

  it('protects a path with .git at any depth, and only those', () => {
    assert.deepEqual(['.git', '.git/config', 'sub/.GIT/hooks/pre-commit', 'vendor/lib/.git/HEAD'].map(isProtectedPath), [true, true, true, true]);
    assert.deepEqual(['', 'src/a.ts', 'docs/.github/workflows/ci.yml', 'a.git/b', 'x/.gitignore'].map(isProtectedPath), [false, false, false, false, false]);
  });

  it('protects .task-planner (run journals, snapshots, temporary files) in any letter case, at any depth', () => {
    assert.deepEqual(['.task-planner', '.Task-Planner', '.TASK-PLANNER'].map(isProtectedSegment), [true, true, true]);
    assert.deepEqual(['.task-planner-tmp-0123abcd', 'task-planner', '.task-planners', '.task-plan', 'x.task-planner'].map(isProtectedSegment), [
      false,
      false,
      false,
      false,
      false,
    ]);
    assert.deepEqual(['.task-planner/runs/r.jsonl', 'sub/.Task-Planner/tmp', '.task-planner'].map(isProtectedPath), [true, true, true]);
    assert.deepEqual(['src/.task-planner-tmp-0123abcd', 'task-planner/a.ts'].map(isProtectedPath), [false, false]);
  });

  it('attack: protects the places spelled with letters a case-insensitive disk folds to theirs (ſ, the Kelvin sign, ı)', () => {
    // On APFS and NTFS each opens .task-planner or .git: a write_file of .taſk-planner/runs/r1.jsonl overwrote the journal.
    assert.deepEqual(['.ta\u017Fk-planner', '.tas\u212A-planner', '.g\u0131t'].map(isProtectedSegment), [true, true, true]);
    assert.equal(isProtectedPath('.ta\u017Fk-planner/runs/r1.jsonl'), true);
    assert.deepEqual(['.g\u00eft', '.gi', 'stra\u00dfe'].map(isProtectedSegment), [false, false, false]);
  });

  it('says where a refused change leads and why', () => {
    assert.equal(protectedPlaceReason('.git/config'), 'it leads to .git/config, inside .git, which git manages: tools never change files there');
    assert.equal(
      protectedPlaceReason('sub/.Task-Planner/runs/r.jsonl'),
      'it leads to sub/.Task-Planner/runs/r.jsonl, inside .task-planner, where Task Planner keeps its run journals, snapshots and temporary files: tools never change files there',
    );
    assert.match(protectedPlaceReason('.task-planner/.git/x'), /inside \.task-planner,/, 'the outermost place is named');
  });

  it('says only where the path is when it leads nowhere else: a link is not suggested where there is none', () => {
    const journals = 'inside .task-planner, where Task Planner keeps its run journals, snapshots and temporary files: tools never change files there';
    assert.equal(protectedPlaceReason('.task-planner/note.txt', '.task-planner/note.txt'), `it is ${journals}`);
    assert.equal(protectedPlaceReason('.task-planner/note.txt', './.task-planner//note.txt'), `it is ${journals}`, 'the same path written otherwise');
    assert.equal(
      protectedPlaceReason('.git/hooks', '.GIT\\hooks/'),
      'it leads to .git/hooks, inside .git, which git manages: tools never change files there',
      'another letter case is named',
    );
    assert.equal(protectedPlaceReason('.task-planner/note.txt', 'docs/note.txt'), `it leads to .task-planner/note.txt, ${journals}`, 'a link is named');
  });
});
