import type { RunEvent } from '../../src/core/engine/runEvents';
import { parsePlan } from '../../src/core/plan/parsePlan';
import type { Plan } from '../../src/core/plan/planSchema';
import { numberedEvents } from './numberedEvents';

/** What a hostile model hid in everything it could choose; a trace without content must not hold it anywhere. */
export const traceSecret = 'SECRET-CONTENT-123';

function plan(raw: unknown): Plan {
  const parsed = parsePlan(raw);
  if (!parsed.ok) throw new Error(`the hostile plan does not parse: ${parsed.errors.join('; ')}`);
  return parsed.plan;
}

const agent = `${traceSecret}-agent`;
const first = plan({
  objective: `Objective ${traceSecret}`,
  agents: { [agent]: { prompt: `Prompt ${traceSecret}`, tools: ['read_file', `mcp__srv__${traceSecret}`] } },
  steps: [
    {
      id: `${traceSecret}-read`,
      title: `Title ${traceSecret}`,
      kind: 'agent',
      agent,
      input: `Input ${traceSecret}`,
      skills: ['secret-content-123'],
      writes: [`src/${traceSecret}.ts`],
      basedOn: [`docs/${traceSecret}.md`],
      checks: [{ kind: 'command', argv: ['grep', traceSecret, 'config.txt'] }, { kind: 'file_exists', path: `${traceSecret}.txt` }],
      onFailure: 'replan',
    },
    { id: `${traceSecret}-mcp`, title: 'MCP', tool: `mcp__${traceSecret}__lookup`, args: { query: traceSecret }, dependsOn: [`${traceSecret}-read`] },
    { id: `${traceSecret}-list`, title: 'List', tool: 'list_files', args: { glob: `${traceSecret}/*` } },
  ],
});
const repair = plan({
  ...first,
  steps: [...first.steps, { id: `${traceSecret}-fix`, title: `Fix ${traceSecret}`, kind: 'agent', agent, input: `Fix ${traceSecret}` }],
});

/**
 * A run's journal in which a model put `traceSecret` into every string it chooses: step ids
 * (one added by a repair plan too), titles, the objective, an agent's name and prompt, tool
 * and MCP tool names (planned and called), tool arguments, check commands and paths, skill
 * names, write scopes, inputs, results, errors and diagnoses.
 */
export function hostileTraceJournal(runId = 'r-hostile'): RunEvent[] {
  const [read, mcp, list] = first.steps.map((step) => step.id) as [string, string, string];
  const fix = `${traceSecret}-fix`;
  return numberedEvents(runId, [
    { type: 'run_started', plan: first },
    { type: 'step_started', stepId: read, attempt: 1, input: `Input ${traceSecret}` },
    { type: 'model_called', stepId: read, model: 'm1', promptTokens: 10, completionTokens: 1 },
    { type: 'step_progress', stepId: read, message: `turn 1 of 12: ${traceSecret}` },
    { type: 'step_progress', stepId: read, message: `turn 2 of 12: mcp__srv__${traceSecret}` },
    { type: 'step_progress', stepId: read, message: `turn 3 of 12: vscode__${traceSecret}` },
    { type: 'step_progress', stepId: read, message: 'turn 4 of 12: read_file' },
    { type: 'checks_evaluated', stepId: read, attempt: 1, checks: [] },
    { type: 'verification_failed', stepId: read, attempt: 1, diagnosis: `Diagnosis ${traceSecret}`, result: `Result ${traceSecret}` },
    { type: 'step_failed', stepId: read, attempt: 1, error: `Error ${traceSecret}`, disposition: 'fail', replan: true },
    { type: 'replan_started', stepId: read, reason: `Reason ${traceSecret}` },
    { type: 'replan_completed', plan: repair },
    { type: 'step_started', stepId: fix, attempt: 1, input: `Fix ${traceSecret}` },
    { type: 'step_progress', stepId: fix, message: `turn 1 of 12: mcp__srv__${traceSecret}` },
    { type: 'step_completed', stepId: fix, result: `Result ${traceSecret}` },
    { type: 'step_started', stepId: mcp, attempt: 1, input: { query: traceSecret } },
    { type: 'step_failed', stepId: mcp, attempt: 1, error: `MCP error ${traceSecret}`, disposition: 'skip' },
    { type: 'step_started', stepId: list, attempt: 1, input: { glob: `${traceSecret}/*` } },
    { type: 'step_completed', stepId: list, result: [`${traceSecret}/a.txt`] },
    { type: 'run_failed', reason: `Failed ${traceSecret}` },
  ]);
}
