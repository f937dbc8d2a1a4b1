import assert from 'node:assert/strict';
import { capabilitySection } from '../../../../src/core/agent/capabilitySection';
import type { Instruction, Skill } from '../../../../src/core/capabilities/capabilityCatalogue';
import { countTokens } from '../../../../src/core/llm/tokenCount';

const instruction = (path: string, text: string, applyTo: string[] = []): Instruction => ({ kind: applyTo.length > 0 ? 'scoped' : 'agents', path, directory: '', applyTo, text, bytes: text.length });
const skill = (name: string, text: string, workspaceFolder?: string): Skill => ({
  name,
  description: `When to use ${name}.`,
  tags: [],
  source: workspaceFolder ? `${workspaceFolder}/SKILL.md` : `/home/me/skills/${name}/SKILL.md`,
  ...(workspaceFolder ? { workspaceFolder } : {}),
  text,
  bytes: text.length,
});

describe('capabilitySection', () => {
  it('is empty when the step uses nothing', () => {
    assert.equal(capabilitySection({ instructions: [], skills: [], unknownSkills: [] }), '');
  });

  it('gives the instructions, then the skills with their description, source and folder', () => {
    const text = capabilitySection({
      instructions: [instruction('AGENTS.md', 'Run npm test.'), instruction('.github/instructions/ts.instructions.md', 'No any.', ['**/*.ts', 'src/**'])],
      skills: [skill('release', 'Group by package.', '.github/skills/release'), skill('mine', 'My way.')],
      unknownSkills: [],
    });
    assert.equal(
      text,
      [
        '## Project instructions for this step',
        "The project's own conventions for this work, from its instruction files: follow them where they apply.",
        '',
        '### AGENTS.md\nRun npm test.',
        '',
        '### .github/instructions/ts.instructions.md (applies to **/*.ts, src/**)\nNo any.',
        '',
        '## Skills for this step',
        'Use these skills for this step. Files a skill refers to are in its folder; read them with the file tools where it is in the workspace.',
        '',
        '### Skill release (.github/skills/release/SKILL.md; folder .github/skills/release)\nWhen to use release.\n\nGroup by package.',
        '',
        '### Skill mine (/home/me/skills/mine/SKILL.md)\nWhen to use mine.\n\nMy way.',
      ].join('\n'),
    );
  });

  it('stays within its budget: instructions take at most half, skills the rest, cuts marked and what no longer fits named', () => {
    const big = 'word '.repeat(20_000);
    const text = capabilitySection(
      {
        instructions: [instruction('AGENTS.md', big), instruction('CLAUDE.md', big)],
        skills: [skill('first', big), skill('second', big)],
        unknownSkills: [],
      },
      2_000,
    );
    assert.ok(countTokens(text) <= 2_000 + 60, `${countTokens(text)} tokens`);
    const [instructions, skills] = text.split('## Skills for this step');
    assert.ok(countTokens(instructions ?? '') <= 1_000 + 30);
    assert.match(instructions ?? '', /### AGENTS\.md\nword[\s\S]*… \(cut to keep the prompt small\)/);
    assert.match(instructions ?? '', /\(Left out to keep the prompt small: CLAUDE\.md\.\)/);
    assert.match(skills ?? '', /### Skill first[\s\S]*cut to keep the prompt small[\s\S]*Left out to keep the prompt small: Skill second \(\/home\/me\/skills\/second\/SKILL\.md\)/);
  });

  it('gives skills the whole budget when there are no instructions', () => {
    const text = capabilitySection({ instructions: [], skills: [skill('only', 'word '.repeat(20_000))], unknownSkills: [] }, 2_000);
    assert.ok(countTokens(text) > 1_500 && countTokens(text) <= 2_000);
  });
});
