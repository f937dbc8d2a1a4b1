import * as vscode from 'vscode';
import { allowRuleMeaning, allowRuleOfCommandLine, describeAllowRule, type CommandAllowRule } from '../core/tools/commandAllowRules';
import { allowRuleWorkspaceNote } from '../core/tools/allowRuleWorkspaceNote';
import { errorMessage } from '../shared/errorMessage';
import { allowRulesSetting, EditorCommandAllowList, type AllowRuleSource, type ListedAllowRule } from './commandAllowList';
import { showError, showWarning } from './notifications';

/**
 * The editor's command allow list over the live editor: the setting as `inspect` reports
 * its user and workspace values, `state` (the workspace state), and `isTrusted` (the
 * workspace trust, read at each call); a bad setting entry is shown in a warning with a
 * button that opens the setting.
 */
export function createVscodeCommandAllowList(state: vscode.Memento, isTrusted: () => boolean): EditorCommandAllowList {
  return new EditorCommandAllowList({
    setting: () => {
      const values = vscode.workspace.getConfiguration().inspect<unknown>(allowRulesSetting);
      return { user: values?.globalValue, workspace: values?.workspaceValue };
    },
    state,
    isTrusted,
    warn: (problems) => {
      const open = vscode.l10n.t('Open Settings');
      void showWarning(vscode.l10n.t('Task Planner: some command allow rules were ignored.'), { detail: problems.join('\n') }, open).then((choice) =>
        choice === open ? vscode.commands.executeCommand('workbench.action.openSettings', allowRulesSetting) : undefined,
      );
    },
  });
}

interface RuleItem extends vscode.QuickPickItem {
  listed?: ListedAllowRule;
  add?: true;
}

const removeButton = (): vscode.QuickInputButton => ({ iconPath: new vscode.ThemeIcon('trash'), tooltip: vscode.l10n.t('Remove this rule') });
const settingsButton = (): vscode.QuickInputButton => ({ iconPath: new vscode.ThemeIcon('gear'), tooltip: vscode.l10n.t('Edit in Settings') });

function sourceText(source: AllowRuleSource): string {
  switch (source) {
    case 'workspace':
      return vscode.l10n.t('this workspace');
    case 'userSetting':
      return vscode.l10n.t('user settings');
    case 'workspaceSetting':
      return vscode.l10n.t('workspace settings');
  }
}

/** What a rule allows, and what decides what its words run where the workspace's files do (`allowRuleWorkspaceNote`). */
function ruleDetail(rule: CommandAllowRule): string {
  const note = allowRuleWorkspaceNote(rule);
  return `${allowRuleMeaning(rule)}.${note === undefined ? '' : ` ${note}`}`;
}

function itemsOf(list: EditorCommandAllowList): RuleItem[] {
  const rules = list.list().map(
    (listed): RuleItem => ({
      label: describeAllowRule(listed.rule),
      description: !listed.ignored
        ? sourceText(listed.source)
        : listed.source === 'workspaceSetting'
          ? vscode.l10n.t('{0} · ignored: only your user settings can allow commands', sourceText(listed.source))
          : vscode.l10n.t('{0} · ignored in Restricted Mode', sourceText(listed.source)),
      detail: ruleDetail(listed.rule),
      buttons: [listed.source === 'workspace' ? removeButton() : settingsButton()],
      listed,
    }),
  );
  return [...rules, { label: `$(add) ${vscode.l10n.t('Allow a command for this workspace…')}`, add: true, alwaysShow: true }];
}

/**
 * "Task Planner: Command allow rules": a QuickPick of every rule with where it comes from
 * (the workspace settings' marked as ignored, and this workspace's in Restricted Mode). A rule of this workspace
 * is removed with its button or by choosing it (after a confirmation); one from the
 * settings opens the setting; the last item adds a rule typed as a command line.
 */
export async function showCommandAllowRules(list: EditorCommandAllowList): Promise<void> {
  const picker = vscode.window.createQuickPick<RuleItem>();
  picker.title = vscode.l10n.t('Task Planner: Command allow rules');
  picker.placeholder = vscode.l10n.t(
    'These commands run without asking: exactly as written, or with further arguments when the rule ends in .... Choose one to remove it.',
  );
  picker.items = itemsOf(list);
  const refresh = (): void => {
    picker.items = itemsOf(list);
  };
  const act = async (item: RuleItem): Promise<void> => {
    if (item.add) {
      picker.hide();
      await addTypedRule(list);
      return;
    }
    const listed = item.listed;
    if (listed === undefined) return;
    if (listed.source !== 'workspace') {
      picker.hide();
      await vscode.commands.executeCommand('workbench.action.openSettings', allowRulesSetting);
      return;
    }
    await list.remove(listed.rule);
    refresh();
  };
  await new Promise<void>((done) => {
    picker.onDidTriggerItemButton((event) => void act(event.item).catch(reportError));
    picker.onDidAccept(() => {
      const item = picker.selectedItems[0];
      if (item === undefined) return;
      if (item.listed?.source === 'workspace') {
        picker.hide();
        void confirmRemove(list, item.listed).catch(reportError);
        return;
      }
      void act(item).catch(reportError);
    });
    picker.onDidHide(() => {
      picker.dispose();
      done();
    });
    picker.show();
  });
}

async function confirmRemove(list: EditorCommandAllowList, listed: ListedAllowRule): Promise<void> {
  const remove = vscode.l10n.t('Remove');
  const choice = await showWarning(
    vscode.l10n.t('Remove the allow rule "{0}"?', describeAllowRule(listed.rule)),
    { modal: true, detail: vscode.l10n.t('The commands it allows will ask again before they run.') },
    remove,
  );
  if (choice === remove) await list.remove(listed.rule);
}

async function addTypedRule(list: EditorCommandAllowList): Promise<void> {
  const line = await vscode.window.showInputBox({
    title: vscode.l10n.t('Task Planner: Allow a command for this workspace'),
    prompt: vscode.l10n.t(
      'The exact command, e.g. npm test; it runs without asking exactly as written. End it with ... (npm test ...) to allow further arguments too, except ones that write files, read configuration or run another program.',
    ),
    ignoreFocusOut: true,
    validateInput: (text) => {
      const made = allowRuleOfCommandLine(text);
      const problem = 'problem' in made ? made.problem : list.ruleProblem(made.rule);
      if (problem !== undefined) return `${problem.charAt(0).toUpperCase()}${problem.slice(1)}.`;
      // Says what the rule will allow before it is made, so "..." is a choice seen, not a surprise.
      return 'rule' in made ? { message: `This rule ${ruleDetail(made.rule)}`, severity: vscode.InputBoxValidationSeverity.Info } : undefined;
    },
  });
  if (line === undefined) return;
  const made = allowRuleOfCommandLine(line);
  if ('rule' in made) await list.addRule(made.rule);
}

function reportError(error: unknown): void {
  void showError(vscode.l10n.t('Task Planner: {0}', errorMessage(error)));
}
