import type { ToolRegistry } from '../tools/tool';
import { toolEffectOf } from '../tools/toolEffectOf';
import { normalizeWorkspacePath } from '../workspace/resolveInRoot';
import type { Plan, Step } from './planSchema';
import { topologicalOrder } from './topologicalOrder';
import { upstreamSteps } from './downstreamSteps';

/** Two steps that change one file and may run in either order, where the order decides what happens. */
export interface UnorderedChange {
  /** The step that comes second in the plan's order of running, where the finding is shown. */
  stepId: string;
  otherId: string;
  path: string;
  message: string;
  recommendation: string;
}

/** Most reachability walks one plan is given: each is linear in steps and edges, and a plan holds few such pairs. */
const maxWalks = 200;
/** Most changes of one file looked at (the first in the order of running): the pairs grow with its square. */
const maxChangesPerFile = 100;

/**
 * The pairs of tool steps of `plan` that change the same file (its literal `path` argument; one a template decides is not
 * known) while neither waits for the other, directly or through other steps, and at least one of them writes the whole
 * file or deletes it: the run makes them one at a time, in an order left to chance, and the second then fails or drops
 * the other's change (a whole-file write after the other's change is refused; a change after a deletion finds no file;
 * a deletion after a change throws it away). Two edits of one file compose in either order and are not named. One
 * finding per file. Linear in steps and edges per pair looked at, at most `maxWalks` walks and `maxChangesPerFile` changes of a file
 * (past them, the rest count as ordered).
 */
export function unorderedChangeFindings(plan: Pick<Plan, 'steps'>, registry: ToolRegistry | undefined): UnorderedChange[] {
  const sorted = topologicalOrder(plan.steps);
  // A plan with a cycle cannot run: the validation says so.
  if (!sorted.ok) return [];
  const byFile = new Map<string, Step[]>();
  for (const index of sorted.order) {
    const step = plan.steps[index];
    const change = step === undefined ? undefined : changeOf(step, registry);
    if (step === undefined || change === undefined) continue;
    const changes = byFile.get(change.path);
    if (changes === undefined) byFile.set(change.path, [step]);
    else changes.push(step);
  }
  let walks = 0;
  const found: UnorderedChange[] = [];
  for (const [path, steps] of byFile) {
    const unordered = firstUnorderedPair(steps.slice(0, maxChangesPerFile), (later, earlier) =>
      walks++ < maxWalks ? upstreamSteps(plan, later.id).has(earlier.id) : undefined,
    );
    if (unordered !== undefined) found.push(finding(path, ...unordered));
  }
  return found;
}

/**
 * The first pair of `steps` (in the order of running) not both edits where the later does not wait for the earlier;
 * `undefined` when there is none, or once `waits` cannot tell (`undefined`: its walks are used up).
 */
function firstUnorderedPair(steps: readonly Step[], waits: (later: Step, earlier: Step) => boolean | undefined): [Step, Step] | undefined {
  for (const [index, later] of steps.entries()) {
    for (const earlier of steps.slice(0, index)) {
      if (bothEdits(earlier, later)) continue;
      const ordered = waits(later, earlier);
      if (ordered === undefined) return undefined;
      if (!ordered) return [earlier, later];
    }
  }
  return undefined;
}

function finding(path: string, first: Step, second: Step): UnorderedChange {
  const deletes = [first, second].some((step) => step.tool === 'delete_file');
  const why = deletes
    ? 'a change made after the deletion finds no file, and a deletion made after the change throws it away'
    : 'the whole-file write is refused when the other change came first (it would drop it), and that step fails';
  return {
    stepId: second.id,
    otherId: first.id,
    path,
    message: `Steps "${first.id}" (${first.tool ?? ''}) and "${second.id}" (${second.tool ?? ''}) both change ${path} and neither waits for the other, so which runs first is left to chance: ${why}.`,
    recommendation: 'Make one of two steps that change the same file depend on the other, in the order the changes are to be made.',
  };
}

/** The file a tool step changes and how, when its tool writes or deletes files and its path is written out. */
function changeOf(step: Step, registry: ToolRegistry | undefined): { path: string } | undefined {
  if (step.kind !== 'tool' || step.tool === undefined) return undefined;
  const effect = toolEffectOf(step.tool, registry);
  if (effect !== 'write' && effect !== 'delete') return undefined;
  const path = step.args?.['path'];
  if (typeof path !== 'string' || /\{\{|^\$/.test(path)) return undefined;
  try {
    return { path: normalizeWorkspacePath(path) };
  } catch {
    // A path the run refuses: the validation's finding, not this one.
    return undefined;
  }
}

function bothEdits(a: Step, b: Step): boolean {
  return a.tool === 'edit_file' && b.tool === 'edit_file';
}
