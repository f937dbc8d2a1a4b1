import { critiquePlan } from '../core/plan/critiquePlan';
import { validatePlan } from '../core/plan/validatePlan';
import type { CliIo } from './cliIo';
import { loadRunnablePlan } from './taskFileCommands';
import { cliTools } from './cliTools';
import { cliCapabilities } from './cliCapabilities';
import type { Tool } from '../core/tools/tool';
import { oneLine } from '../core/text/oneLine';

/**
 * `validate <plan.json | tasks file>`: diagnostics and critique against the built-in tools and
 * `extraTools` (the MCP servers'); exit code 1 when there are errors. With `workspace`
 * (`--workspace DIR`, given explicitly) the steps' skills are checked against that
 * workspace's skills too, as `run` there would.
 */
export async function validateCommand(
  file: string,
  json: boolean,
  io: CliIo,
  options: { extraTools?: readonly Tool[]; workspace?: string } = {},
): Promise<number> {
  // A task file as `run` reads it (a newcomer's `validate tasks.md` was told "the reply is not valid JSON"), without a model: its steps yours to do.
  const { plan, warnings } = await loadRunnablePlan(file, false, io);
  const tools = cliTools(options.extraTools);
  const skills = options.workspace === undefined ? undefined : (await cliCapabilities({ workspace: options.workspace }, io)).skills.map((skill) => skill.name);
  const diagnostics = validatePlan(plan, { tools, ...(skills ? { skills } : {}) });
  const critique = critiquePlan(plan, { tools });
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  if (json) {
    io.out(JSON.stringify({ valid: errors.length === 0, parseWarnings: warnings, diagnostics, critique }, null, 2));
    return errors.length > 0 ? 1 : 0;
  }
  const lines = [`${file}: ${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'}, objective: ${oneLine(plan.objective, 300) || '(none)'}`];
  // As `run` says them.
  for (const warning of warnings) lines.push(`  plan warning: ${warning}`);
  if (diagnostics.length === 0) lines.push('  no validation problems');
  for (const diagnostic of diagnostics) {
    lines.push(`  ${diagnostic.severity} ${diagnostic.code}${diagnostic.stepId ? ` [${diagnostic.stepId}]` : ''}: ${diagnostic.message}`);
  }
  lines.push(`Critique: ${critique.summary}`);
  // Validation errors are listed above already.
  for (const issue of critique.issues.filter((found) => !found.blocking)) {
    lines.push(`  ${issue.severity} ${issue.name} (${issue.check})${issue.stepId ? ` [${issue.stepId}]` : ''}: ${issue.message}`);
  }
  for (const recommendation of critique.recommendations) lines.push(`  → ${recommendation}`);
  // A plan warning (a field ignored, JSON repaired) counts too: "Valid." under one read as nothing to look at.
  const warned = diagnostics.length - errors.length + warnings.length;
  lines.push(
    errors.length > 0
      ? `Invalid: ${errors.length} error${errors.length === 1 ? '' : 's'}.`
      : warned > 0
        ? `Valid, with ${warned} warning${warned === 1 ? '' : 's'} above: it runs, but read ${warned === 1 ? 'it' : 'them'} first.`
        : 'Valid.',
  );
  io.out(lines.join('\n'));
  return errors.length > 0 ? 1 : 0;
}
