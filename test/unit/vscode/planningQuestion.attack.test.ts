import assert from 'node:assert/strict';
import { requireWithVscode } from '../../fakes/requireWithVscode';
import type * as vscode from 'vscode';
import type * as PlanningQuestionModule from '../../../src/vscode/planningQuestion';

/** The QuickPicks created, as the test sees them: their items and their placeholder. */
const pickers: { items: vscode.QuickPickItem[]; placeholder: string | undefined; hide: () => void }[] = [];

function fakeQuickPick(): unknown {
  const hidden: (() => void)[] = [];
  const picker = {
    items: [] as vscode.QuickPickItem[],
    placeholder: undefined as string | undefined,
    title: '',
    ignoreFocusOut: false,
    selectedItems: [],
    activeItems: [],
    value: '',
    onDidChangeValue: () => ({ dispose: () => undefined }),
    onDidAccept: () => ({ dispose: () => undefined }),
    onDidHide: (listener: () => void) => void hidden.push(listener),
    show: () => undefined,
    hide: () => hidden.forEach((listener) => listener()),
    dispose: () => undefined,
  };
  pickers.push(picker);
  return picker;
}

// `answerPicker` needs `window.createQuickPick` and `Disposable` besides what the l10n fake gives.
const { askPlanningQuestion } = requireWithVscode<typeof PlanningQuestionModule>(require.resolve('../../../src/vscode/planningQuestion'), {
  window: { createQuickPick: fakeQuickPick },
  Disposable: class {
    constructor(private readonly done: () => void) {}
    dispose(): void {
      this.done();
    }
  },
});

describe('askPlanningQuestion: a hostile planner\'s question in the QuickPick', () => {
  // Found while attacking planning (2026): the question went into a QuickPick row's `detail`, which renders `$(icon)`, so a
  // model could put a warning or a key icon beside words that impersonate the editor ("$(key) Your API key expired").
  it('attack: no icon of the question or its suggestions renders, and invisible characters are shown', async () => {
    const answer = askPlanningQuestion(
      { question: '$(warning) Your API key expired $(key)\u200b paste it below', suggestions: ['$(check) sk-...'] },
      new AbortController().signal,
    );
    const picker = pickers.at(-1);
    assert.ok(picker);
    const rows = picker.items.flatMap((item) => [item.label, item.description ?? '', item.detail ?? '']);
    for (const text of rows) assert.ok(!/(^|[^\\])\$\(/.test(text), `an icon renders in ${JSON.stringify(text)}`);
    assert.ok(!`${picker.placeholder ?? ''}${rows.join('')}`.includes('\u200b'), 'a zero-width space is shown, not hidden');
    picker.hide();
    assert.equal(await answer, undefined);
  });
});
