import assert from 'node:assert/strict';
import { projectTestCommand } from '../../../../src/core/planner/projectTestCommand';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';

const commandOf = (files: Record<string, string>) => projectTestCommand(createMemoryWorkspace(files));

describe('projectTestCommand: what "run the tests" runs in this project', () => {
  it("reads the test command from the project's files at its root", async () => {
    assert.deepEqual(await commandOf({ 'package.json': '{ "scripts": { "test": "mocha" } }' }), ['npm', 'test']);
    assert.deepEqual(await commandOf({ 'pytest.ini': '[pytest]\n' }), ['pytest']);
    assert.deepEqual(await commandOf({ 'conftest.py': '' }), ['pytest']);
    assert.deepEqual(await commandOf({ 'pyproject.toml': '[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n' }), ['pytest']);
    assert.deepEqual(await commandOf({ 'setup.cfg': '[tool:pytest]\n' }), ['pytest']);
    assert.deepEqual(await commandOf({ 'tox.ini': '[pytest]\n' }), ['pytest']);
    assert.deepEqual(await commandOf({ 'Cargo.toml': '[package]\n' }), ['cargo', 'test']);
    assert.deepEqual(await commandOf({ 'go.mod': 'module x\n' }), ['go', 'test', './...']);
  });

  it("guesses nothing: no test script, npm's placeholder, a pyproject without pytest, two conventions, or a file it cannot read", async () => {
    assert.equal(await commandOf({}), undefined);
    assert.equal(await commandOf({ 'package.json': '{ "scripts": { "build": "tsc" } }' }), undefined);
    assert.equal(await commandOf({ 'package.json': '{ "scripts": { "test": "echo \\"Error: no test specified\\" && exit 1" } }' }), undefined);
    assert.equal(await commandOf({ 'package.json': 'not json' }), undefined);
    assert.equal(await commandOf({ 'pyproject.toml': '[project]\nname = "x"\n' }), undefined);
    assert.equal(await commandOf({ 'package.json': '{ "scripts": { "test": "jest" } }', 'pytest.ini': '' }), undefined);
    assert.equal(await commandOf({ 'conftest.py/inner.txt': '' }), undefined, 'a folder named conftest.py is not the file');
  });
});
