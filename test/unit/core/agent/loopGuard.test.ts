import assert from 'node:assert/strict';
import { canonicalArguments, LoopGuard } from '../../../../src/core/agent/loopGuard';

describe('LoopGuard', () => {
  it('trips on the third identical call, whatever the key order and spacing', () => {
    const guard = new LoopGuard();
    const call = (args: string) => ({ id: 'x', name: 'read_file', arguments: args });
    assert.equal(guard.check(call('{"path":"a","startLine":1}')), undefined);
    assert.equal(guard.check(call('{"path":"b"}')), undefined);
    guard.remember(call('{"path":"a","startLine":1}'), 'file a');
    assert.equal(guard.check(call('{ "startLine": 1, "path": "a" }')), undefined);
    assert.match(guard.check(call('{"startLine":1,"path":"a"}')) ?? '', /read_file with the same arguments 3 times .*kept returning: file a/);
  });

  it('compares invalid JSON as trimmed text', () => {
    assert.equal(canonicalArguments(' {"a": '), '{"a":');
    assert.equal(canonicalArguments('{"b":[{"d":1,"c":2}],"a":0}'), '{"a":0,"b":[{"c":2,"d":1}]}');
  });
});
