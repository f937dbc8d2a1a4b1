import type { Agent } from './planSchema';
import { firstString, isRecord } from './rawValues';

/**
 * Normalizes an `agents`/`workers` map: an agent given as a string is its prompt; the
 * prompt comes from `prompt` > `description` > `role`, tools from `tools` > `capabilities`
 * (a comma-separated string is accepted). Entries that are neither are dropped with a warning.
 */
export function normalizeAgents(value: unknown, warnings: string[]): Record<string, Agent> {
  const agents: Record<string, Agent> = {};
  if (value === undefined || value === null) return agents;
  if (!isRecord(value)) {
    warnings.push('Ignored "agents": expected an object mapping agent names to agents.');
    return agents;
  }
  for (const [name, raw] of Object.entries(value)) {
    if (typeof raw === 'string') {
      agents[name] = { prompt: raw, tools: [] };
    } else if (isRecord(raw)) {
      agents[name] = { prompt: firstString(raw.prompt, raw.description, raw.role) ?? '', tools: toolList(raw.tools ?? raw.capabilities) };
    } else {
      warnings.push(`Ignored agent "${name}": expected a prompt string or an object.`);
    }
  }
  return agents;
}

function toolList(value: unknown): string[] {
  if (typeof value === 'string') return value.split(',').map((tool) => tool.trim()).filter((tool) => tool !== '');
  if (!Array.isArray(value)) return [];
  return value.filter((tool): tool is string => typeof tool === 'string' && tool.trim() !== '');
}
