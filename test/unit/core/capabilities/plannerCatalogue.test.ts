import assert from 'node:assert/strict';
import { plannerSkillCatalogue } from '../../../../src/core/capabilities/plannerCatalogue';
import { buildPlanningPrompt } from '../../../../src/core/planner/prompts/planningPrompt';
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

  it('lists a skill exactly when its line fits in what the budget leaves, and counts the rest', () => {
    const skills = [
      { name: 'one', description: 'The first.', tags: [] },
      { name: 'two', description: 'The second.', tags: [] },
    ];
    const full = plannerSkillCatalogue(skills);
    const [intro = '', first = ''] = full.split('\n');
    // The intro, 16 tokens of room for the last line, then each line and its newline.
    const exact = countTokens(intro) + 16 + countTokens(first) + 1;
    assert.equal(plannerSkillCatalogue(skills, exact), `${intro}\n${first}\n(1 more skills not listed)`);
    assert.equal(plannerSkillCatalogue(skills, exact - 1), `${intro}\n(2 more skills not listed)`);
    assert.equal(plannerSkillCatalogue(skills, exact + countTokens(full.split('\n')[2] ?? '') + 1), full);
  });

  it('cuts one long line to 120 tokens, marked', () => {
    const text = plannerSkillCatalogue([{ name: 'long', description: 'word '.repeat(1_000), tags: [] }], 10_000);
    const line = text.split('\n')[1] ?? '';
    assert.ok(countTokens(line) <= 120, `${countTokens(line)} tokens`);
    assert.match(line, /^- long: word word .*…$/);
  });
});

