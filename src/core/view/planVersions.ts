import type { PanelEdit } from '../../shared/panelProtocol';
import type { PlanVersionView } from '../../shared/panelViewModel';
import type { Plan } from '../plan/planSchema';

/** Most characters of Regenerate's feedback quoted in a version's label. */
const feedbackChars = 40;

/** The plan before an edit and after it, when known: an edit of a step is named by what it changed. */
export interface EditedPlans {
  before: Pick<Plan, 'steps'>;
  after: Pick<Plan, 'steps'>;
}

const editNotes: { [K in PanelEdit['type']]: (edit: Extract<PanelEdit, { type: K }>, plans: EditedPlans | undefined) => string } = {
  updateStep: (edit, plans) =>
    plans && changedFields(plans, edit.stepId).join() === 'writes' ? `changed the files ${edit.stepId} may change` : `edited ${edit.stepId}`,
  moveStep: (edit) => `moved ${edit.stepId}`,
  skipStep: (edit) => `skipped ${edit.stepId}`,
  unskipStep: (edit) => `unskipped ${edit.stepId}`,
  addStep: (edit) => `added ${edit.step.id}`,
  removeStep: (edit) => `removed ${edit.stepId}`,
  makeManual: (edit) => `${edit.stepIds.length === 1 ? edit.stepIds[0] : `${edit.stepIds.length} steps`} made yours to do`,
  setContextTags: () => 'changed the topics',
};

/**
 * How a panel edit is named in the version list: "edited S002", or with `plans` (the plan
 * before and after it) "changed the files S002 may change" when that is all it changed.
 */
export function editNote(edit: PanelEdit, plans?: EditedPlans): string {
  return (editNotes[edit.type] as (edit: PanelEdit, plans: EditedPlans | undefined) => string)(edit, plans);
}

/** The fields of step `stepId` that differ between the two plans, sorted. */
function changedFields({ before, after }: EditedPlans, stepId: string): string[] {
  const old = before.steps.find((step) => step.id === stepId);
  const next = after.steps.find((step) => step.id === stepId);
  if (!old || !next) return [];
  const fields = new Set([...Object.keys(old), ...Object.keys(next)]);
  const at = (step: object, field: string): string | undefined => JSON.stringify((step as Record<string, unknown>)[field]);
  return [...fields].filter((field) => at(old, field) !== at(next, field)).sort();
}

/** How a Regenerate is named in the version list: `regenerated with "add tests"`, the feedback cut short. */
export function regenerateNote(feedback: string): string {
  const text = feedback.trim().replace(/\s+/g, ' ');
  return `regenerated with "${text.length > feedbackChars ? `${text.slice(0, feedbackChars).trimEnd()}…` : text}"`;
}

/**
 * Every version of one plan the panel has shown, each with what made it ("planned",
 * "edited S002", `regenerated with "…"`, "back to v2"), so any of them can be brought back.
 * Keyed by version number: a plan with another id starts a new history, and a version
 * recorded again replaces the one with its number.
 */
export class PlanVersions {
  private planId: string | undefined;
  private entries: { plan: Plan; note: string }[] = [];

  /** Records `plan` as shown, made by what `note` says (by default what its version was made by before, else "planned" or "opened"). */
  record(plan: Plan, note?: string): void {
    if (plan.id !== this.planId) {
      this.planId = plan.id;
      this.entries = [];
    }
    const index = this.entries.findIndex((known) => known.plan.version === plan.version);
    const entry = { plan, note: note ?? this.entries[index]?.note ?? (this.entries.length === 0 ? 'planned' : 'opened') };
    if (index >= 0) this.entries[index] = entry;
    else this.entries.push(entry);
  }

  /** The version number after every one recorded (at least `plan.version + 1`). */
  nextVersion(plan: Plan): number {
    return Math.max(plan.version, ...this.entries.map((entry) => entry.plan.version)) + 1;
  }

  /** The recorded plan of `version`, if it is one of this plan's. */
  get(version: number): Plan | undefined {
    return this.entries.find((entry) => entry.plan.version === version)?.plan;
  }

  /** The versions, newest first: "v3 · regenerated with "add tests"". */
  list(): PlanVersionView[] {
    return [...this.entries]
      .sort((a, b) => b.plan.version - a.plan.version)
      .map(({ plan, note }) => ({ version: plan.version, label: `v${plan.version} · ${note}` }));
  }
}
