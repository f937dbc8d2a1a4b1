import type { ReviewView } from '../src/shared/panelViewModel';

/** The step forms open in the review: the step being edited, and whether the Add step form is open. */
export interface OpenForms {
  editing: string | undefined;
  adding: boolean;
}

/**
 * The forms open after the form of step `stepId` (`undefined`: the Add step form) closed: only that one. Closing the
 * edit of one step once closed the Add step form too, and what was typed in it was gone.
 */
export function closeForm(forms: OpenForms, stepId: string | undefined): OpenForms {
  if (stepId === undefined) return { ...forms, adding: false };
  return { ...forms, editing: forms.editing === stepId ? undefined : forms.editing };
}

/** What the review refuses now, in words shown beside the controls; `undefined` where it allows it. */
export interface ReviewLocks {
  /** Why the plan's edit controls (Edit, Add step, moves, Skip, Remove, Topics, versions) are off now. */
  edit: string | undefined;
  /** Why Start is off now. */
  start: string | undefined;
  /** Why going back to a version is off now. */
  versions: string | undefined;
}

/**
 * What the review lets the user do with `forms` open, and while an earlier version is looked at (`viewing`: read only). While Regenerate runs, the plan it is making replaces the one
 * shown, and the host refuses every edit: no form opens, and one already open keeps what was typed with Save off
 * (the user would type into a form whose work is refused). While a step form is open, Start is off: the run would
 * take the plan without what was typed there, and the form would go with the review.
 */
export function reviewLocks(
  review: Pick<ReviewView, 'regenerating' | 'startBlockedReason' | 'steps'> & Partial<Pick<ReviewView, 'planVersion' | 'viewing'>>,
  forms: OpenForms,
): ReviewLocks {
  const versions = review.regenerating ? 'Regenerate is under way: the plan can be edited again once its new version shows.' : undefined;
  // An earlier version is shown read only: what the controls act on, the newest, is not what the user sees.
  const viewing =
    review.viewing &&
    `You are looking at version ${review.viewing.version}, read only: go back to it, or show the newest, version ${review.planVersion ?? ''}, to change or start the plan.`;
  const edit = versions ?? viewing;
  const start =
    review.startBlockedReason ??
    viewing ??
    // A form of a step the plan no longer has is not shown: it holds nothing back.
    (forms.editing !== undefined && review.steps.some((step) => step.id === forms.editing)
      ? `Save or cancel your edit of step ${forms.editing} first: Start would run the plan without it.`
      : forms.adding
        ? 'Add or cancel the new step first: Start would run the plan without it.'
        : undefined);
  return { edit, start, versions };
}
