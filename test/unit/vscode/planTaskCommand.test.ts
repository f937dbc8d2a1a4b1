import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as PlanTaskCommand from '../../../src/vscode/planTaskCommand';
import { requireWithVscode } from '../../fakes/requireWithVscode';

describe('the Plan task command\'s argument (the walkthrough\'s "Plan without a model")', () => {
  const { planTaskArgument } = requireWithVscode<typeof PlanTaskCommand>(require.resolve('../../../src/vscode/planTaskCommand'), {});

  it('plans without a model only when asked exactly so; any other argument plans as the command does', () => {
    assert.deepEqual(planTaskArgument({ withoutModel: true }), { withoutModel: true });
    // A command link elsewhere (another extension's Markdown) can pass anything: none of it reaches planning.
    for (const other of [undefined, null, 'withoutModel', true, { withoutModel: 'true' }, { withoutModel: 1 }, { request: 'rm -rf /', withoutModel: false }, [{ withoutModel: true }]]) {
      assert.deepEqual(planTaskArgument(other), {}, JSON.stringify(other));
    }
  });

  it('the walkthrough\'s link passes that argument, URI-encoded as command links are', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.nls.json'), 'utf8')) as Record<string, string>;
    const link = /\[Plan without a model\]\(command:taskPlanner\.planTask\?([^)]+)\)/.exec(manifest['walkthrough.gettingStarted.setUpModel.description'] ?? '');
    assert.ok(link?.[1], 'the first walkthrough step offers to go without a model');
    assert.deepEqual(planTaskArgument(JSON.parse(decodeURIComponent(link[1]))), { withoutModel: true });
  });
});

// A newcomer's trial: "Plan task" on the "Connected" notification opened the request box, and typing went nowhere until
// a click into it; the closing notification gives the focus back to the editor after the box showed.
describe('the Plan task request box, started from a notification\'s button', () => {
  const loadWithBox = (shows: number[]) => {
    class ThemeIcon {
      constructor(readonly id: string) {}
    }
    const hidden: (() => void)[] = [];
    const box = {
      value: '',
      show: () => {
        shows.push(Date.now());
        setTimeout(() => box.hide(), 0);
      },
      hide: () => hidden.forEach((listener) => listener()),
      dispose: () => undefined,
      onDidChangeValue: () => undefined,
      onDidAccept: () => undefined,
      onDidTriggerButton: () => undefined,
      onDidHide: (listener: () => void) => hidden.push(listener),
    };
    return requireWithVscode<typeof PlanTaskCommand>(require.resolve('../../../src/vscode/planTaskCommand'), {
      ThemeIcon,
      window: { activeTextEditor: undefined, createInputBox: () => box },
      workspace: { workspaceFolders: undefined, getWorkspaceFolder: () => undefined },
    });
  };

  it('waits for the notification to close before it shows, so it keeps the focus; started otherwise, shows at once', async () => {
    const shows: number[] = [];
    const { planTask, planTaskArgument, notificationCloseMs } = loadWithBox(shows);
    assert.deepEqual(planTaskArgument({ fromNotification: true }), { fromNotification: true });
    const deps = {} as Parameters<typeof planTask>[0];
    let started = Date.now();
    assert.deepEqual(await planTask(deps, planTaskArgument({ fromNotification: true })), {});
    assert.equal(shows.length, 1);
    assert.ok(shows[0]! - started >= notificationCloseMs - 5, `shown after ${shows[0]! - started} ms`);
    started = Date.now();
    assert.deepEqual(await planTask(deps, {}), {});
    assert.ok(shows[1]! - started < notificationCloseMs / 2, `shown after ${shows[1]! - started} ms`);
  });

  it('is what the notifications\' "Plan task" buttons pass', () => {
    for (const file of ['setUpModelCommand.ts', 'showPlanCommand.ts']) {
      const source = readFileSync(join(__dirname, '../../../src/vscode', file), 'utf8');
      const calls = [...source.matchAll(/executeCommand\('taskPlanner\.planTask'([^)]*)\)/g)].map((match) => match[1]);
      assert.ok(calls.length > 0, file);
      assert.deepEqual(calls.filter((args) => args !== ', { fromNotification: true }'), [], file);
    }
  });
});
