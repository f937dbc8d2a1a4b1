// What one eval task is (test/eval/README.md): a request over a fixture repository, what its plan must show,
// what the workspace must hold after the run, and the canned good plan the scripted model answers with.
import type { CheckKind } from '../../src/core/plan/planSchema';

/** A check the harness runs itself on the workspace after the run (never through the model or the plan). */
export type HostCheck =
  | { kind: 'contains'; path: string; text: string }
  | { kind: 'lacks'; path: string; text: string }
  | { kind: 'absent'; path: string }
  /** `node --test` in the workspace passes. */
  | { kind: 'tests' };

/** A step of the canned plan, in the planner's output shape. */
export interface CannedStep {
  id: string;
  title: string;
  kind: 'tool';
  dependsOn: string[];
  tool: string;
  args: Record<string, unknown>;
  checks?: Record<string, unknown>[];
}

/** One eval task. Paths are relative to the fixture's copy; the harness refuses any that leaves it. */
export interface EvalTask {
  id: string;
  /** A folder of test/eval/fixtures. */
  fixture: string;
  request: string;
  plan: {
    /** Every path a good plan names (in a step's arguments, input, checks or writes). */
    files: string[];
    /** Check kinds a good plan has on some step. */
    checkKinds: CheckKind[];
  };
  host: HostCheck[];
  /** The good plan the scripted model answers with (CI runs the harness with it). */
  canned: CannedStep[];
}

/** `edit_file` step replacing `search` (once) by `replace` in `path`. */
export function edit(id: string, path: string, pairs: [string, string][], extra: Partial<CannedStep> = {}): CannedStep {
  return {
    id,
    title: `Edit ${path}`,
    kind: 'tool',
    dependsOn: [],
    tool: 'edit_file',
    args: { path, edits: pairs.map(([search, replace]) => ({ search, replace })) },
    ...extra,
  };
}

/** `write_file` step creating or replacing `path`. */
export function write(id: string, path: string, content: string, extra: Partial<CannedStep> = {}): CannedStep {
  return { id, title: `Write ${path}`, kind: 'tool', dependsOn: [], tool: 'write_file', args: { path, content }, ...extra };
}

/** The check that the fixture's tests pass, as a plan step has it. */
export const testsPass = { kind: 'command', argv: ['node', '--test'] };

/** A `file_contains` check as a plan step has it. */
export function fileContains(path: string, text: string): Record<string, unknown> {
  return { kind: 'file_contains', path, text };
}
