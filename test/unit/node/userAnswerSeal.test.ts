import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createUserAnswerSeal, userAnswerKeyFile } from '../../../src/node/userAnswerSeal';

describe("createUserAnswerSeal (the user's key of answer seals)", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-seal-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("keeps its key in the user's cache, outside every workspace", () => {
    assert.equal(userAnswerKeyFile(), path.join(os.homedir(), '.cache', 'task-planner', 'answer-key'));
  });

  it('makes its key on first use for the user alone, and every process of the user seals alike with it', () => {
    const file = path.join(dir, 'nested', 'answer-key');
    const first = createUserAnswerSeal(file).mac('an answer');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal(fs.statSync(file).size, 32);
    assert.equal(createUserAnswerSeal(file).mac('an answer'), first, 'another process seals otherwise');
    assert.notEqual(createUserAnswerSeal(file).mac('another answer'), first);
    fs.writeFileSync(file, Buffer.alloc(32, 1));
    assert.notEqual(createUserAnswerSeal(file).mac('an answer'), first, 'another key seals alike');
  });

  it('seals under a key of its own process where the key cannot be made (a file in the way): nothing of another process is taken back', () => {
    fs.writeFileSync(path.join(dir, 'blocked'), '');
    const file = path.join(dir, 'blocked', 'answer-key');
    const seal = createUserAnswerSeal(file);
    assert.equal(seal.mac('an answer'), seal.mac('an answer'));
    assert.notEqual(createUserAnswerSeal(file).mac('an answer'), seal.mac('an answer'));
  });
});
