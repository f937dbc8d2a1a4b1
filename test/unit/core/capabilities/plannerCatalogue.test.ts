import assert from 'node:assert/strict';
import { plannerSkillCatalogue } from '../../../../src/core/capabilities/plannerCatalogue';
import { buildPlanningPrompt } from '../../../../src/core/llm/prompts/planningPrompt';
import { countTokens } from '../../../../src/core/llm/tokenCount';

describe('plannerSkillCatalogue', () => {
  it('is empty without skills, and the planning prompt then says nothing of skills', () => {
    assert.equal(plannerSkillCatalogue([]), '');
    const [system] = buildPlanningPrompt({ objective: 'x', tools: [], strategy: 'react' });
    assert.doesNotMatch(String(system?.content), /skill/i);
  });

  it('lists each skill with its tags and description, and tells the planner how to use them', () => {
    const skills = [
      { name: 'release', description: 'How release notes are written.', tags: ['docs'] },
      { name: 'tests', description: 'How tests are written.', tags: [] },
    ];
    const text = plannerSkillCatalogue(skills);
    assert.match(text, /Give an agent step "skills": \[names\]/);
    assert.match(text, /"contextTags" add every skill with one of those tags/);
    assert.match(text, /\n- release \[docs\]: How release notes are written\.\n- tests: How tests are written\.$/);
    const [system] = buildPlanningPrompt({ objective: 'x', tools: [], strategy: 'react', skills });
    assert.ok(String(system?.content).includes(text));
  });

  it('stays within its budget, cutting each line and counting the skills it leaves out', () => {
    const skills = Array.from({ length: 200 }, (_, index) => ({ name: `skill-${index}`, description: 'd '.repeat(500), tags: ['t'] }));
    const text = plannerSkillCatalogue(skills, 1_000);
    assert.ok(countTokens(text) <= 1_000, `${countTokens(text)} tokens`);
    assert.match(text, /\(\d+ more skills not listed\)$/);
    assert.match(text, /- skill-0 \[t\]: d d .*…\n/);
  });
});
