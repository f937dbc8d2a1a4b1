import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parsePlan } from '../core/plan/parsePlan';
import type { Plan } from '../core/plan/planSchema';

/** Where a CLI command writes: `out` for results, `err` for progress and messages. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** True when questions can be asked interactively. */
  interactive: boolean;
}

/** A failure the user can fix; its message is printed without a stack, with exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Reads and parses a plan file; throws a `UsageError` naming the file and every problem. */
export async function loadPlanFile(path: string): Promise<{ plan: Plan; warnings: string[] }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read the plan file ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = parsePlan(text);
  if (!parsed.ok) throw new UsageError(`${path} is not a usable plan:\n${parsed.errors.map((error) => `  - ${error}`).join('\n')}`);
  return { plan: parsed.plan, warnings: parsed.warnings };
}

/** The journal directory of a workspace. */
export function runsDirectory(workspace: string): string {
  return join(resolve(workspace), '.task-planner', 'runs');
}
