import assert from 'node:assert/strict';
import type { HostToWebviewMessage } from '../../../src/shared/panelProtocol';
import type { PanelViewModel, ReviewView } from '../../../src/shared/panelViewModel';
import { noticeAfterSnapshot } from '../../../webview/refusalNotice';

type Notice = Extract<HostToWebviewMessage, { type: 'notice' }>;
const review = (version: number, planVersion: number, planId = 'p1'): PanelViewModel =>
  ({ mode: 'review', session: 's1', version, review: { planVersion, planId } as ReviewView });
const refused: Notice = { type: 'notice', id: 1, level: 'error', text: 'Step "b" cannot move before its dependencies "a".', untilEdit: true };
const info: Notice = { type: 'notice', id: 2, level: 'info', text: 'The planner warned: x', untilEdit: false };
const reading: Notice = { type: 'notice', id: 3, level: 'info', text: 'Reading the plan: Error in step S4: Step "S4" depends on "S9".', untilEdit: true };

describe('webview: a "Refused" banner (issue 28 item 13)', () => {
  it('goes with the next edit that succeeded (a newer plan version), not before', () => {
    const shown = { notice: refused, planVersion: 3 };
    assert.deepEqual(noticeAfterSnapshot(shown, review(8, 3)), shown, 'a snapshot of the same plan version keeps it');
    assert.equal(noticeAfterSnapshot(shown, review(9, 4)), undefined, 'a successful edit clears it');
  });

  it('a notice on how the planner\'s answer was read goes with the next edit too (a fixed dependency\'s error stayed on top: trial)', () => {
    const shown = { notice: reading, planVersion: 1 };
    assert.deepEqual(noticeAfterSnapshot(shown, review(3, 1)), shown);
    assert.equal(noticeAfterSnapshot(shown, review(4, 2)), undefined);
  });

  // A trial: "Step "S001" is not valid: …", refused on one plan, stayed above the next plan Plan task showed (version 1 too).
  it('goes when another plan is under review, whatever its version', () => {
    const shown = { notice: refused, planVersion: 2, planId: 'p1' };
    assert.equal(noticeAfterSnapshot(shown, review(9, 1, 'p2')), undefined);
    assert.deepEqual(noticeAfterSnapshot(shown, review(9, 2, 'p1')), shown, 'the same plan and version keep it');
  });

  it('leaves other notices alone', () => {
    const shown = { notice: info, planVersion: 3 };
    assert.deepEqual(noticeAfterSnapshot(shown, review(9, 4)), shown);
  });
});
