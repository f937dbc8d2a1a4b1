import type { PanelEdit } from '../../shared/panelProtocol';
import type { StepPatchInput } from '../../shared/stepEditSchema';
import type { PlanEdit, StepPatch } from '../plan/editPlan';
import type { Check } from '../plan/planSchema';

/**
 * The core edit for a webview edit; a kind change drops the fields of the old kind, blank
 * texts clear their field, and an empty list of the files a step may change removes its
 * `writes` (no limit; the form cannot say "no file").
 */
export function toPlanEdit(edit: PanelEdit): PlanEdit {
  switch (edit.type) {
    case 'updateStep':
      return { type: 'updateStep', stepId: edit.stepId, patch: toStepPatch(edit.patch) };
    case 'addStep': {
      const { dependsOn, writes, checks, ...rest } = edit.step;
      const scope = writes === undefined ? [] : [...new Set(writes)];
      return {
        type: 'addStep',
        step: {
          ...rest,
          dependsOn: dependsOn ?? [],
          ...(scope.length > 0 ? { writes: scope } : {}),
          ...(checks?.length ? { checks: planChecks(checks) } : {}),
        },
        ...(edit.index === undefined ? {} : { index: edit.index }),
      };
    }
    // The panel has one Remove: what waited on the step waits on what it waited on (a step that uses its result is refused).
    case 'removeStep':
      return { type: 'removeStep', stepId: edit.stepId, dropEdges: true };
    default:
      return edit;
  }
}

/**
 * The panel's checks as the plan's: each has a known kind (the webview schema checked it);
 * `editPlan` checks each kind's fields against the plan schema and refuses the edit, naming
 * the field, when one is wrong.
 */
function planChecks(checks: readonly Record<string, unknown>[]): Check[] {
  return checks as unknown as Check[];
}

function toStepPatch(input: StepPatchInput): StepPatch {
  const { checks, ...fields } = input;
  const patch: StepPatch = { ...fields, ...(checks === undefined ? {} : { checks: checks.length > 0 ? planChecks(checks) : undefined }) };
  for (const key of ['input', 'verification', 'when'] as const) if (patch[key] !== undefined && patch[key].trim() === '') patch[key] = undefined;
  if (input.kind !== undefined && input.kind !== 'tool') {
    patch.tool = undefined;
    patch.args = undefined;
  }
  if (input.kind === 'tool' || input.kind === 'manual') patch.agent = undefined;
  if (patch.writes !== undefined) patch.writes = patch.writes.length > 0 ? [...new Set(patch.writes)] : undefined;
  // Only tools and agents change files: the scheduler reads no other kind's `writes`.
  if (input.kind !== undefined && input.kind !== 'tool' && input.kind !== 'agent') patch.writes = undefined;
  return patch;
}
