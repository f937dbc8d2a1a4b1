import assert from 'node:assert/strict';
import { estimateMiss, signedPercent } from '../../eval/evalRun';

const range = (typical: number) => ({ low: Math.round(typical / 3), typical, high: typical * 10 });

describe('npm run eval: the estimate against the run (estimateMiss)', () => {
  it('is within when the typical estimate lies between 0.7 and 1.3 times the tokens the run used, boundaries included', () => {
    assert.equal(estimateMiss({ estimate: range(1300), runTokens: 1000 }), undefined);
    assert.equal(estimateMiss({ estimate: range(700), runTokens: 1000 }), undefined);
    assert.match(estimateMiss({ estimate: range(1301), runTokens: 1000 }) ?? '', /typically 1301 tokens\) is \+30 % off the 1000 the run used/);
    assert.match(estimateMiss({ estimate: range(699), runTokens: 1000 }) ?? '', /is -30 % off/);
  });

  it('a run that used no tokens needs an estimate of none; a missing estimate or run is a miss', () => {
    assert.equal(estimateMiss({ estimate: range(0), runTokens: 0 }), undefined);
    assert.ok(estimateMiss({ estimate: range(10), runTokens: 0 }));
    assert.equal(estimateMiss({ estimate: undefined, runTokens: 10 }), 'no estimate and run use to compare');
    assert.equal(estimateMiss({ estimate: range(10), runTokens: undefined }), 'no estimate and run use to compare');
    assert.equal(signedPercent(5, 0), 'n/a');
    assert.equal(signedPercent(0, 0), '0 %');
  });
});
