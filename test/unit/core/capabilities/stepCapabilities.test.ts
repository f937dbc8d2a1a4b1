import assert from 'node:assert/strict';
import { emptyCatalogue, type CapabilityCatalogue, type Instruction, type Skill } from '../../../../src/core/capabilities/capabilityCatalogue';
import { stepCapabilities, stepFiles } from '../../../../src/core/capabilities/stepCapabilities';
import { withStepDefaults, type Step } from '../../../../src/core/plan/planSchema';

const instruction = (kind: Instruction['kind'], path: string, applyTo: string[] = []): Instruction => ({
  kind,
  path,
  directory: kind === 'agents' || kind === 'claude' ? (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '') : '',
  applyTo,
  text: `text of ${path}`,
  bytes: 10,
});
const skill = (name: string, tags: string[] = []): Skill => ({ name, description: `${name} skill`, tags, source: `.github/skills/${name}/SKILL.md`, text: `body of ${name}`, bytes: 10 });

const catalogue: CapabilityCatalogue = {
  instructions: [
    instruction('copilot', '.github/copilot-instructions.md'),
    instruction('scoped', '.github/instructions/ts.instructions.md', ['**/*.ts']),
    instruction('scoped', '.github/instructions/all.instructions.md', ['**']),
    instruction('scoped', '.github/instructions/docs.instructions.md', ['docs/**', '*.md']),
    instruction('scoped', '.github/instructions/none.instructions.md', []),
    instruction('agents', 'AGENTS.md'),
    instruction('claude', 'CLAUDE.md'),
    instruction('agents', 'packages/web/AGENTS.md'),
    instruction('agents', 'packages/web/src/AGENTS.md'),
    instruction('claude', 'packages/api/CLAUDE.md'),
  ],
  skills: [skill('release', ['docs']), skill('tests', ['testing', 'ci']), skill('deploy', ['ops'])],
  diagnostics: [],
};

const agent = (patch: Partial<Step>): Step => withStepDefaults({ id: 'S1', kind: 'agent', agent: 'default', ...patch });
const paths = (step: Step, tags?: string[]): string[] => stepCapabilities(step, tags ? { contextTags: tags } : {}, catalogue).instructions.map((found) => found.path);

describe('stepCapabilities', () => {
  it('gives a step that names no file the root AGENTS.md and CLAUDE.md, Copilot\'s file and the instructions for every file', () => {
    assert.deepEqual(paths(agent({ input: 'Explain the architecture' })), [
      '.github/copilot-instructions.md',
      'AGENTS.md',
      'CLAUDE.md',
      '.github/instructions/all.instructions.md',
    ]);
  });

  it('picks, per file the step touches, the nearest AGENTS.md and CLAUDE.md above it', () => {
    // button.tsx has its own AGENTS.md but only the root's CLAUDE.md; server.go the root's AGENTS.md and its own CLAUDE.md.
    assert.deepEqual(paths(agent({ input: 'Fix packages/web/src/button.tsx and packages/api/server.go' })), [
      '.github/copilot-instructions.md',
      'AGENTS.md',
      'packages/web/src/AGENTS.md',
      'CLAUDE.md',
      'packages/api/CLAUDE.md',
      '.github/instructions/all.instructions.md',
    ]);
    assert.deepEqual(paths(agent({ input: 'Restyle packages/web/index.css' })).filter((path) => path.endsWith('AGENTS.md')), ['packages/web/AGENTS.md']);
    assert.deepEqual(paths(agent({ input: 'Look at packages/web/' })).filter((path) => path.endsWith('AGENTS.md')), ['packages/web/AGENTS.md']);
    assert.deepEqual(paths(agent({ input: 'Check packages/webapp/x.css' })).filter((path) => path.endsWith('AGENTS.md')), ['AGENTS.md']);
  });

  it('gives scoped instructions only to steps with a file their applyTo matches', () => {
    const scoped = (step: Step): string[] => paths(step).filter((path) => path.startsWith('.github/instructions/'));
    assert.deepEqual(scoped(agent({ input: 'Edit src/a.ts' })), ['.github/instructions/ts.instructions.md', '.github/instructions/all.instructions.md']);
    assert.deepEqual(scoped(agent({ input: 'Edit docs/guide.txt and README.md' })), ['.github/instructions/all.instructions.md', '.github/instructions/docs.instructions.md']);
    assert.deepEqual(scoped(agent({ args: { path: 'lib/x.ts' } })), ['.github/instructions/ts.instructions.md', '.github/instructions/all.instructions.md']);
    assert.deepEqual(scoped(agent({ attachments: [{ kind: 'file', ref: 'src/b.ts#L3-L9' }] })), ['.github/instructions/ts.instructions.md', '.github/instructions/all.instructions.md']);
    assert.deepEqual(scoped(agent({ input: 'Look at src/' })), ['.github/instructions/all.instructions.md']);
  });

  it('gives the named skills in the step\'s order, then those of the plan\'s context tags, and names the unknown ones', () => {
    const chosen = stepCapabilities(agent({ skills: ['tests', 'nope', 'release', 'tests'] }), { contextTags: ['OPS', 'docs'] }, catalogue);
    assert.deepEqual(chosen.skills.map((found) => found.name), ['tests', 'release', 'deploy']);
    assert.deepEqual(chosen.unknownSkills, ['nope']);
    assert.deepEqual(stepCapabilities(agent({}), {}, catalogue).skills, []);
  });

  it('gives nothing to steps without an agent', () => {
    for (const kind of ['tool', 'synthesis_gate', 'manual', 'human_review', 'clarification'] as const) {
      assert.deepEqual(stepCapabilities(withStepDefaults({ id: 'S', kind, skills: ['tests'], tool: 'read_file' }), { contextTags: ['ci'] }, catalogue), { instructions: [], skills: [], unknownSkills: [] });
    }
  });
});

describe('stepFiles', () => {
  it('takes paths from file attachments, string arguments, the input and the title, without duplicates', () => {
    assert.deepEqual(
      stepFiles({
        title: 'Fix `src/a.ts`',
        input: 'Open "src/a.ts", then ./lib/b.js, (docs/c.md). Not ../up.ts, /etc/passwd, https://x.dev/a.ts, 1.2.3 or e.g.',
        args: { path: 'lib/d.ts', paths: ['e.json', 7], count: 3 },
        attachments: [{ kind: 'file', ref: 'f.py#L1-L2' }, { kind: 'link', ref: 'https://example.com/g.ts' }, { kind: 'image', ref: 'h.png' }],
      }),
      ['f.py', 'lib/d.ts', 'e.json', 'src/a.ts', 'lib/b.js', 'docs/c.md'],
    );
  });

  it('looks at the first 20 000 characters of the input and keeps at most 200 paths', () => {
    assert.deepEqual(stepFiles({ title: 't', input: `${' '.repeat(20_000)}late.ts` }), []);
    const many = Array.from({ length: 300 }, (_, index) => `f${index}.ts`).join(' ');
    assert.equal(stepFiles({ title: 't', input: many }).length, 200);
  });

  it('gives a step nothing from the empty catalogue (a run without a host catalogue), and names the skills it lacks', () => {
    assert.deepEqual(emptyCatalogue, { instructions: [], skills: [], diagnostics: [] });
    assert.deepEqual(stepCapabilities(agent({ input: 'Edit src/a.ts', skills: ['tests'] }), { contextTags: ['ci'] }, emptyCatalogue), {
      instructions: [],
      skills: [],
      unknownSkills: ['tests'],
    });
  });
});

