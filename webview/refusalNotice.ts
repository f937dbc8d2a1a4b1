import type { HostToWebviewMessage } from '../src/shared/panelProtocol';
import type { PanelViewModel } from '../src/shared/panelViewModel';

/** A notice the panel shows, with the plan under review and its version when it came (none outside a review). */
export interface ShownNotice {
  notice: Extract<HostToWebviewMessage, { type: 'notice' }>;
  planVersion: number | undefined;
  planId?: string;
}

/**
 * The notice still shown after the snapshot `model`: one about the plan version under review (`untilEdit`: a refusal,
 * how the planner's answer was read) goes once a later edit succeeded, which the review shows as a newer plan version,
 * or once another plan is under review; any other stays.
 */
export function noticeAfterSnapshot(shown: ShownNotice, model: PanelViewModel): ShownNotice | undefined {
  if (!shown.notice.untilEdit || shown.planVersion === undefined || model.mode !== 'review') return shown;
  // A new plan starts at version 1 again: a trial's refused edit of the plan before stayed above the next one.
  if (shown.planId !== undefined && model.review.planId !== shown.planId) return undefined;
  return model.review.planVersion > shown.planVersion ? undefined : shown;
}
