import assert from 'node:assert/strict';
import type { HostToWebviewMessage } from '../../../src/shared/panelProtocol';
import type { PanelViewModel, ReviewView } from '../../../src/shared/panelViewModel';
import { noticeAfterSnapshot } from '../../../webview/refusalNotice';

type Notice = Extract<HostToWebviewMessage, { type: 'notice' }>;
const review = (version: number, planVersion: number): PanelViewModel =>
  ({ mode: 'review', session: 's1', version, review: { planVersion } as ReviewView });
const refused: Notice = { type: 'notice', id: 1, level: 'error', text: 'Step "b" cannot move before its dependencies "a".' };
const info: Notice = { type: 'notice', id: 2, level: 'info', text: 'The planner warned: x' };

describe('webview: a "Refused" banner (issue 28 item 13)', () => {
  it('goes with the next edit that succeeded (a newer plan version), not before', () => {
    const shown = { notice: refused, planVersion: 3 };
    assert.deepEqual(noticeAfterSnapshot(shown, review(8, 3)), shown, 'a snapshot of the same plan version keeps it');
    assert.equal(noticeAfterSnapshot(shown, review(9, 4)), undefined, 'a successful edit clears it');
  });

  it('leaves other notices alone', () => {
    const shown = { notice: info, planVersion: 3 };
    assert.deepEqual(noticeAfterSnapshot(shown, review(9, 4)), shown);
  });
});
