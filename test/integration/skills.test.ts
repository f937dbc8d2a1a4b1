// Skills and instructions in the editor: the workspace's and the user's own skills folder reach the planner and the step's agent.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TaskPlannerApi } from './testBuild/testExtension';
import { FakeOpenAiServer, type FakeRequest } from '../fakes/fakeOpenAiServer';
import { forgetFakeModel, useFakeModel } from './fakeModelSettings';

const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';

async function api(): Promise<TaskPlannerApi> {
  const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
  assert.ok(extension);
  return extension.activate();
}

function message(request: FakeRequest | undefined, role: string): string {
  const found = request?.body?.messages?.find((entry) => entry.role === role);
  return typeof found?.content === 'string' ? found.content : JSON.stringify(found?.content ?? '');
}

describe('Skills and instructions in the editor (fake OpenAI server)', function () {
  this.timeout(60_000);
  const server = new FakeOpenAiServer();
  const config = () => vscode.workspace.getConfiguration('taskPlanner');
  const mine = mkdtempSync(join(tmpdir(), 'task-planner-my-skills-'));

  before(async () => {
    await useFakeModel(server);
    mkdirSync(join(root, '.github', 'skills', 'house-style'), { recursive: true });
    writeFileSync(join(root, '.github', 'skills', 'house-style', 'SKILL.md'), '---\nname: house-style\ndescription: The house style of this project.\n---\nHOUSE-STYLE-BODY\n');
    writeFileSync(join(root, 'AGENTS.md'), 'ROOT-AGENTS-BODY\n');
    mkdirSync(join(mine, 'my-skill'));
    writeFileSync(join(mine, 'my-skill', 'SKILL.md'), '---\nname: my-skill\ndescription: My own way of working.\n---\nMY-SKILL-BODY\n');
    await config().update('skills.folders', [mine], vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await forgetFakeModel();
    await config().update('skills.folders', undefined, vscode.ConfigurationTarget.Global);
    rmSync(join(root, '.github', 'skills'), { recursive: true, force: true });
    rmSync(join(root, 'AGENTS.md'), { force: true });
    rmSync(mine, { recursive: true, force: true });
    await server.close();
  });

  it('refuses the skills folder setting in workspace settings: only the user can point Task Planner at a folder', async () => {
    await assert.rejects(Promise.resolve(config().update('skills.folders', ['/tmp'], vscode.ConfigurationTarget.Workspace)));
  });

  it('shows the planner both skills, and gives the step that names them their text and the root AGENTS.md', async () => {
    const planner = await api();
    const plan = { objective: 'test', steps: [{ id: 'S1', title: 'Style it', kind: 'agent', agent: 'direct', dependsOn: [], input: 'Restyle the page', skills: ['house-style', 'my-skill'] }] };
    server.enqueue({ kind: 'message', content: JSON.stringify(plan) }, { kind: 'message', content: 'Restyled.' });
    const outcome = await planner.planTask('Restyle the page', { accept: true });
    assert.deepEqual(outcome.plan?.steps[0]?.skills, ['house-style', 'my-skill']);
    const result = await outcome.run;
    assert.equal(result?.status, 'completed', result?.metadata.reason);
    const planning = server.chatRequests.find((request) => message(request, 'system').includes('You are the planner'));
    assert.match(message(planning, 'system'), /- house-style: The house style of this project\.\n- my-skill: My own way of working\./);
    const step = server.chatRequests.find((request) => message(request, 'user').includes('## Your step: S1'));
    assert.match(message(step, 'user'), /ROOT-AGENTS-BODY[\s\S]*Skill house-style[\s\S]*HOUSE-STYLE-BODY[\s\S]*Skill my-skill \(.*my-skill\/SKILL\.md\)\nMy own way of working\.\n\nMY-SKILL-BODY/);
  });

  it("a plan under review in the panel follows the workspace's skills: one added while it is open is named, and the step's skill found, once the plan is shown again at the latest", async () => {
    const planner = await api();
    const plan = {
      id: 'late',
      version: 1,
      objective: 'Use a skill written later',
      createdAt: new Date(0).toISOString(),
      agents: {},
      steps: [{ id: 'S1', title: 'Write it', kind: 'agent' as const, dependsOn: [], input: 'Write it', skills: ['late-skill'], onFailure: 'stop' as const, maxAttempts: 1, critical: true, onVerificationFailure: 'stop' as const }],
    };
    const review = () => {
      const model = planner.planPanel.model();
      return model?.mode === 'review' ? model.review : undefined;
    };
    const until = async (what: string, probe: () => boolean): Promise<void> => {
      const deadline = Date.now() + 30_000;
      while (!probe()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(review()?.skills)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const skillFile = join(root, '.github', 'skills', 'late-skill', 'SKILL.md');
    try {
      planner.planPanel.show(plan);
      await until('the catalogue read for the review', () => review()?.skills?.includes('house-style') === true);
      assert.match(review()?.startBlockedReason ?? '', /"late-skill", which is not in the catalogue/);
      mkdirSync(join(root, '.github', 'skills', 'late-skill'), { recursive: true });
      writeFileSync(skillFile, '---\nname: late-skill\ndescription: Written while the plan was reviewed.\ntags: [late]\n---\nLATE\n');
      // The review reads the skills again when the file's change is seen, and at the latest when the plan is shown
      // again (file events can be missed): "Review plan file" once more, as the user would.
      planner.planPanel.show(plan);
      await until('the new skill named in the review', () => review()?.skills?.includes('late-skill') === true);
      assert.equal(review()?.startBlockedReason, undefined, 'the step that named it is no longer refused');
      assert.deepEqual(review()?.skillTags, ['late']);
    } finally {
      planner.planPanel.close();
      rmSync(join(root, '.github', 'skills', 'late-skill'), { recursive: true, force: true });
    }
  });
});
