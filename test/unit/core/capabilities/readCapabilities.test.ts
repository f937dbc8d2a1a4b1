import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { capabilityLimits } from '../../../../src/core/capabilities/capabilityCatalogue';
import { readCapabilities } from '../../../../src/core/capabilities/readCapabilities';
import type { WorkspaceFs } from '../../../../src/core/workspacePorts';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { temporaryDirectory } from '../../../support/temporaryDirectory';

const skill = (name: string, description = `What ${name} does.`, extra = ''): string =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n# ${name}\nBody of ${name}.\n`;

describe('readCapabilities', () => {
  it('reads instructions and skills from the places the conventions put them, and nothing else', async () => {
    const workspace = createMemoryWorkspace({
      'AGENTS.md': 'Root agents.',
      'packages/web/AGENTS.md': 'Web agents.',
      'CLAUDE.md': 'Claude.',
      '.github/copilot-instructions.md': 'Copilot.',
      '.github/instructions/ts.instructions.md': '---\napplyTo: "**/*.ts, src/**"\ndescription: TypeScript rules\n---\nUse strict types.\n',
      '.github/skills/release/SKILL.md': skill('release', 'Release notes.', 'tags: [Docs, docs, "  ops "]\n'),
      '.claude/skills/tests/SKILL.md': skill('tests'),
      'docs/copilot-instructions.md': 'Not at the conventional place.',
      'src/SKILL.md': skill('stray'),
      '.github/skills/too/deep/SKILL.md': skill('deep'),
      '.github/instructions.md': 'Not an instructions file.',
    });
    const catalogue = await readCapabilities(workspace);
    assert.deepEqual(
      catalogue.instructions.map((instruction) => [instruction.kind, instruction.path, instruction.directory, instruction.applyTo, instruction.text]),
      [
        ['copilot', '.github/copilot-instructions.md', '', [], 'Copilot.'],
        ['scoped', '.github/instructions/ts.instructions.md', '', ['**/*.ts', 'src/**'], 'Use strict types.\n'],
        ['agents', 'AGENTS.md', '', [], 'Root agents.'],
        ['claude', 'CLAUDE.md', '', [], 'Claude.'],
        ['agents', 'packages/web/AGENTS.md', 'packages/web', [], 'Web agents.'],
      ],
    );
    assert.equal(catalogue.instructions[1]?.description, 'TypeScript rules');
    assert.deepEqual(catalogue.instructions.map((instruction) => instruction.bytes), [8, 83, 12, 7, 11]);
    assert.deepEqual(
      catalogue.skills.map((found) => [found.name, found.description, found.tags, found.source, found.workspaceFolder, found.text]),
      [
        ['release', 'Release notes.', ['docs', 'ops'], '.github/skills/release/SKILL.md', '.github/skills/release', '# release\nBody of release.\n'],
        ['tests', 'What tests does.', [], '.claude/skills/tests/SKILL.md', '.claude/skills/tests', '# tests\nBody of tests.\n'],
      ],
    );
    assert.deepEqual(catalogue.diagnostics, []);
  });

  it('lets the user\'s own skill win over a workspace skill of its name, with a warning naming that file; otherwise the first read wins', async () => {
    const workspace = createMemoryWorkspace({
      '.github/skills/shared/SKILL.md': skill('shared', 'The workspace one.'),
      '.claude/skills/shared/SKILL.md': skill('shared', 'The other workspace one.'),
      '.claude/skills/only-here/SKILL.md': skill('only-here'),
    });
    const mine = createMemoryWorkspace({
      'shared/SKILL.md': skill('shared', 'Mine.'),
      'own/SKILL.md': skill('own'),
      'nested/deeper/SKILL.md': skill('deeper'),
    });
    const theirs = createMemoryWorkspace({ 'own/SKILL.md': skill('own', 'Second folder.') });
    const userSkillFolders = [
      { label: '/home/me/skills', fs: mine },
      { label: '/home/me/more', fs: theirs },
    ];
    const catalogue = await readCapabilities(workspace, { userSkillFolders });
    assert.deepEqual(
      catalogue.skills.map((found) => [found.name, found.description, found.source, found.workspaceFolder]),
      [
        ['shared', 'Mine.', '/home/me/skills/shared/SKILL.md', undefined],
        ['only-here', 'What only-here does.', '.claude/skills/only-here/SKILL.md', '.claude/skills/only-here'],
        ['own', 'What own does.', '/home/me/skills/own/SKILL.md', undefined],
      ],
    );
    assert.deepEqual(catalogue.diagnostics, [
      {
        file: '.claude/skills/shared/SKILL.md',
        message: 'The skill "shared" was left out: .github/skills/shared/SKILL.md has the same name and was read first.',
      },
      {
        file: '.github/skills/shared/SKILL.md',
        message: 'The workspace\'s skill "shared" was left out: your own skill of the same name, /home/me/skills/shared/SKILL.md, is used instead.',
      },
      { file: '/home/me/more/own/SKILL.md', message: 'The skill "own" was left out: /home/me/skills/own/SKILL.md has the same name and was read first.' },
    ]);
  });

  it('leaves out each unusable file with a diagnostic naming it and the problem', async () => {
    const workspace = createMemoryWorkspace({
      '.github/skills/huge/SKILL.md': `${skill('huge')}${'x'.repeat(5 * 1024 * 1024)}`,
      '.github/skills/bare/SKILL.md': '# No front matter\n',
      '.github/skills/bomb/SKILL.md': '---\na: &a [1, 2]\nb: [*a, *a]\nname: bomb\ndescription: d\n---\n',
      '.github/skills/notyaml/SKILL.md': '---\nname: [unclosed\n---\n',
      '.github/skills/path/SKILL.md': skill('../x'),
      '.github/skills/upper/SKILL.md': skill('Upper-Case'),
      '.github/skills/long/SKILL.md': skill('a'.repeat(65)),
      '.github/skills/noname/SKILL.md': '---\ndescription: d\n---\n',
      '.github/skills/nodescription/SKILL.md': '---\nname: nodescription\n---\n',
      '.github/skills/badtags/SKILL.md': skill('badtags', 'd', 'tags: {a: 1}\n'),
      '.github/instructions/none.instructions.md': 'No applyTo.\n',
      '.github/instructions/climb.instructions.md': '---\napplyTo: "../outside/**, **/*.md"\n---\nText\n',
      '.github/instructions/broken.instructions.md': '---\napplyTo: [\n---\n',
    });
    const catalogue = await readCapabilities(workspace);
    assert.deepEqual(catalogue.skills.map((found) => [found.name, found.tags]), [['badtags', []]]);
    const messages = catalogue.diagnostics.map((diagnostic) => `${diagnostic.file}: ${diagnostic.message}`);
    const expected = [
      /^\.github\/instructions\/broken\.instructions\.md: It was left out: its front matter is not valid YAML/,
      /^\.github\/instructions\/climb\.instructions\.md: Its applyTo glob "\.\.\/outside\/\*\*" was ignored: .*"\.\."/,
      /^\.github\/instructions\/none\.instructions\.md: It has no usable applyTo globs, so it applies to no step; add one/,
      /^\.github\/skills\/badtags\/SKILL\.md: Its "tags" were ignored: give them as a list of words\.$/,
      /^\.github\/skills\/bare\/SKILL\.md: The skill was left out: it has no front matter; start SKILL\.md with "---"/,
      /^\.github\/skills\/bomb\/SKILL\.md: The skill was left out: its front matter uses YAML aliases/,
      /^\.github\/skills\/huge\/SKILL\.md: It is larger than 256 KiB, the most read of one such file; it was left out\.$/,
      /^\.github\/skills\/long\/SKILL\.md: The skill was left out: its name "a{65}" is not lowercase letters, digits and single hyphens \(at most 64 characters\)\.$/,
      /^\.github\/skills\/nodescription\/SKILL\.md: The skill was left out: its front matter has no "description"\.$/,
      /^\.github\/skills\/noname\/SKILL\.md: The skill was left out: its front matter has no "name"\.$/,
      /^\.github\/skills\/notyaml\/SKILL\.md: The skill was left out: its front matter is not valid YAML/,
      /^\.github\/skills\/path\/SKILL\.md: The skill was left out: its name "\.\.\/x" is not lowercase/,
      /^\.github\/skills\/upper\/SKILL\.md: The skill was left out: its name "Upper-Case" is not lowercase/,
    ];
    assert.equal(messages.length, expected.length, messages.join('\n'));
    for (const [index, pattern] of expected.entries()) assert.match(messages[index] ?? '', pattern);
    assert.deepEqual(catalogue.instructions.map((instruction) => [instruction.path, instruction.applyTo]), [
      ['.github/instructions/climb.instructions.md', ['**/*.md']],
      ['.github/instructions/none.instructions.md', []],
    ]);
  });

  it('shows control and text-direction characters of names, descriptions and tags as escapes, and bounds them', async () => {
    const workspace = createMemoryWorkspace({
      '.github/skills/evil/SKILL.md': `---\nname: evil\ndescription: "Safe \\u202Eexe.txt\\u001b[2J ${'d'.repeat(2_000)}"\ntags: ["a\\u2066b", "${'t'.repeat(100)}"]\n---\nBody\n`,
      '.github/skills/ctl/SKILL.md': '---\nname: "ctl\\u001b]0;x"\ndescription: d\n---\n',
    });
    const catalogue = await readCapabilities(workspace);
    const [evil] = catalogue.skills;
    assert.ok(evil?.description.startsWith('Safe \\u202eexe.txt\\u001b[2J d'), evil?.description);
    assert.ok((evil?.description.length ?? 0) <= capabilityLimits.maxDescriptionChars + 20);
    assert.ok(evil?.description.endsWith('…'));
    assert.deepEqual(evil?.tags.map((tag) => tag.length <= capabilityLimits.maxTagChars + 12), [true, true]);
    assert.equal(evil?.tags[0], 'a\\u2066b');
    assert.match(catalogue.diagnostics[0]?.message ?? '', /its name "ctl\\u001b\]0;x" is not lowercase/);
  });

  it('reads at most 100 skills of one folder and says how many it left out', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 102; index++) files[`.github/skills/s${String(index).padStart(3, '0')}/SKILL.md`] = skill(`s${String(index).padStart(3, '0')}`);
    const catalogue = await readCapabilities(createMemoryWorkspace(files));
    assert.equal(catalogue.skills.length, 100);
    assert.deepEqual(catalogue.diagnostics, [
      { file: '.github/skills', message: 'Only the first 100 of 102 skills in .github/skills are read; 2 were left out.' },
    ]);
  });

  it('reports a workspace or file it cannot read instead of failing, and stops when aborted', async () => {
    const failing: WorkspaceFs = {
      ...createMemoryWorkspace({ 'AGENTS.md': 'x' }),
      rootLabel: '/w',
      list: () => Promise.reject(new Error('disk gone')),
    };
    assert.deepEqual(await readCapabilities(failing), {
      instructions: [],
      skills: [],
      diagnostics: [{ file: '/w', message: 'Its skills and instructions could not be listed: disk gone' }],
    });
    const unreadable: WorkspaceFs = { ...createMemoryWorkspace({ 'AGENTS.md': 'x' }), readText: () => Promise.reject(new Error('denied')) };
    assert.deepEqual((await readCapabilities(unreadable)).diagnostics, [{ file: 'AGENTS.md', message: 'It could not be read (denied); it was left out.' }]);
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    const aborting: WorkspaceFs = { ...createMemoryWorkspace({}), list: () => Promise.reject(new Error('aborted')) };
    await assert.rejects(readCapabilities(aborting, { signal: controller.signal }), /cancelled/);
  });

  // An outside attacker's find (2026-12-01): a repository committed AGENTS.md -> .env, CLAUDE.md -> .git/config and
  // deploy/AGENTS.md -> a private key; their text went into every prompt, and a model sent it on with fetch_url.
  describe('keeps from the model what tools keep from it', () => {
    const folder = temporaryDirectory('capabilities-withheld-');

    it('leaves out an instruction file or skill that leads to a credentials file or into .git, or holds a private key, saying why', async () => {
      const root = folder.path;
      const write = (path: string, text: string): void => {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), text);
      };
      write('.env', 'DB_PASSWORD=SECRET_env\n');
      write('.npmrc', '//registry.npmjs.org/:_authToken=SECRET_npm\n');
      write('.git/config', '[remote "origin"]\n  url = https://x:SECRET_git@github.com/o/r\n');
      write('deploy/key.txt', '-----BEGIN OPENSSH PRIVATE KEY-----\nSECRET_key\n-----END OPENSSH PRIVATE KEY-----\n');
      write('.github/instructions/pasted.instructions.md', '---\napplyTo: "**"\n---\n-----BEGIN PRIVATE KEY-----\nSECRET_pasted\n');
      write('docs/AGENTS.md', 'Honest instructions.');
      symlinkSync('.env', join(root, 'AGENTS.md'));
      symlinkSync('.git/config', join(root, 'CLAUDE.md'));
      symlinkSync('key.txt', join(root, 'deploy/AGENTS.md'));
      mkdirSync(join(root, '.github/skills/leak'), { recursive: true });
      symlinkSync('../../../.npmrc', join(root, '.github/skills/leak/SKILL.md'));
      symlinkSync('../.npmrc', join(root, '.github/copilot-instructions.md'));
      const catalogue = await readCapabilities(createNodeWorkspace(root));
      assert.doesNotMatch(JSON.stringify([catalogue.instructions, catalogue.skills]), /SECRET_/);
      assert.deepEqual(catalogue.instructions.map((instruction) => [instruction.path, instruction.text]), [['docs/AGENTS.md', 'Honest instructions.']]);
      const said = new Map(catalogue.diagnostics.map((diagnostic) => [diagnostic.file, diagnostic.message]));
      assert.match(said.get('AGENTS.md') ?? '', /^It was left out: it leads to \.env: a file of this name holds credentials/);
      assert.match(said.get('CLAUDE.md') ?? '', /^It was left out: it leads to \.git\/config: it is inside \.git/);
      assert.match(said.get('deploy/AGENTS.md') ?? '', /^It was left out: it holds a private key/);
      assert.match(said.get('.github/skills/leak/SKILL.md') ?? '', /it leads to \.npmrc/);
      assert.match(said.get('.github/copilot-instructions.md') ?? '', /it leads to \.npmrc/);
      assert.match(said.get('.github/instructions/pasted.instructions.md') ?? '', /it holds a private key/);
    });
  });
});

