// Interactive trial driver: opens a workbench (mode from TRIAL_MODE: "none" or "model"), then runs each JS snippet
// dropped in .trial/cmds/<n>.js (an async function body with page, model, folder, h = helpers), writing <n>.out.
// Stops when .trial/cmds/stop-<mode> exists.
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { FakeOpenAiServer, planReply, matchers } from '../test/fakes/fakeOpenAiServer';
import { openDemoWorkbench, type DemoWorkbench } from '../test/e2e/demoWorkbench';
import * as wb from '../test/e2e/workbench';

const root = resolve(__dirname, '..');
const mode = process.env.TRIAL_MODE ?? 'none';
const shots = join(root, '.trial', 'shots', mode);
const cmds = join(root, '.trial', 'cmds', mode);

const files: Record<string, string | object> = {
  'src/stats.js': `/** Counts the words of every note: a map from word (lower case) to how many times it appears. */\nexport function wordCounts(notes) {\n  const counts = {};\n  for (const note of notes) {\n    for (const word of note.text.split(' ')) {\n      counts[word] = (counts[word] ?? 0) + 1;\n    }\n  }\n  return counts;\n}\n`,
  'test/stats.test.js': `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { wordCounts } from '../src/stats.js';\n\ntest('wordCounts ignores case and extra spaces', () => {\n  const notes = [{ text: 'Buy milk', tags: [] }, { text: 'buy  bread', tags: [] }];\n  assert.deepEqual(wordCounts(notes), { buy: 2, milk: 1, bread: 1 });\n});\n`,
};

describe(`trial driver (${mode})`, function () {
  let workbench: DemoWorkbench | undefined;
  const model = new FakeOpenAiServer({ models: ['qwen2.5-coder:7b'] });
  let page: Page;
  let folder: string;

  before(async function () {
    mkdirSync(shots, { recursive: true });
    mkdirSync(cmds, { recursive: true });
    await model.start();
    const settings: Record<string, unknown> = mode === 'model' ? { 'taskPlanner.llm.provider': 'openai', 'taskPlanner.llm.baseUrl': model.baseURL, 'taskPlanner.llm.model': 'qwen2.5-coder:7b' } : {};
    workbench = await openDemoWorkbench({ name: `trial-${mode}`, screenshots: shots, files: { ...files, ...(mode === 'model' ? { '.vscode/settings.json': settings } : {}) } });
    ({ page, folder } = workbench);
    writeFileSync(join(cmds, 'ready'), folder);
  });

  after(async () => {
    await workbench?.close();
    await model.close();
  });

  it('runs snippets', async function () {
    const done = new Set<string>();
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor;
    const h = {
      ...wb,
      planReply,
      matchers,
      shoot: async (name: string) => { await page.screenshot({ path: join(shots, `${name}.png`) }); return `${name}.png`; },
      text: async (selector: string) => (await page.locator(selector).allInnerTexts()).join('\n---\n'),
      panel: () => wb.planPanelFrame(page),
      panelText: async () => (await wb.planPanelFrame(page).locator('body').innerText({ timeout: 5000 }).catch((e: unknown) => `(no panel: ${String(e).split('\n')[0]})`)),
      sidebar: async () => (await page.locator('.sidebar').innerText({ timeout: 5000 }).catch(() => '(no sidebar)')),
      statusbar: async () => (await page.locator('.statusbar').innerText({ timeout: 5000 }).catch(() => '(no statusbar)')),
      toasts: async () => (await page.locator('.notifications-toasts .notification-toast').allInnerTexts()).join('\n---\n'),
      sleep: (ms: number) => page.waitForTimeout(ms),
    };
    for (;;) {
      if (existsSync(join(cmds, 'stop'))) return;
      const next = readdirSync(cmds).filter((name) => name.endsWith('.js') && !done.has(name)).sort()[0];
      if (!next) { await new Promise((r) => setTimeout(r, 500)); continue; }
      done.add(next);
      const code = readFileSync(join(cmds, next), 'utf8');
      let out: string;
      try {
        const result = await new AsyncFunction('page', 'model', 'folder', 'h', code)(page, model, folder, h);
        out = typeof result === 'string' ? result : JSON.stringify(result, null, 2);
      } catch (error) {
        out = `ERROR: ${error instanceof Error ? error.stack : String(error)}`;
      }
      writeFileSync(join(cmds, next.replace(/\.js$/, '.out')), out ?? 'undefined');
    }
  });
});
