import { countTokens, truncateToTokens } from '../llm/tokenCount';
import { capabilityLimits, type Skill } from './capabilityCatalogue';

/** What the planner is told of a skill. */
export type SkillSummary = Pick<Skill, 'name' | 'description' | 'tags'>;

/**
 * The planner prompt's list of skills: how to use them, then one line per skill (name, tags,
 * description), within `budgetTokens` tokens (default `capabilityLimits.plannerCatalogueTokens`);
 * skills that do not fit are counted in a last line. Empty without skills.
 */
export function plannerSkillCatalogue(skills: readonly SkillSummary[], budgetTokens: number = capabilityLimits.plannerCatalogueTokens): string {
  if (skills.length === 0) return '';
  const intro =
    'Skills of this workspace: instructions for particular kinds of work. Give an agent step "skills": [names] when its agent should follow them ' +
    '(their full text is added to that step only); a plan\'s "contextTags" add every skill with one of those tags to every agent step.';
  const lines: string[] = [];
  let used = countTokens(intro) + 16;
  for (const [index, skill] of skills.entries()) {
    const line = truncateToTokens(`- ${skill.name}${skill.tags.length > 0 ? ` [${skill.tags.join(', ')}]` : ''}: ${skill.description}`, 120, { marker: '…' });
    const cost = countTokens(line) + 1;
    if (used + cost > budgetTokens) {
      lines.push(`(${skills.length - index} more skills not listed)`);
      break;
    }
    used += cost;
    lines.push(line);
  }
  return `${intro}\n${lines.join('\n')}`;
}
