import type * as vscode from 'vscode';
import type { CommandAllowList } from '../core/commandPorts';
import type { CheckCommand } from '../core/engine/checkCommandConsent';
import { allowRuleProblem, furtherArguments, matchingAllowRule, readAllowRules, sameAllowRule, type CommandAllowRule } from '../core/tools/commandAllowRules';

/** The setting whose user and workspace values hold allow rules (see `package.json`). */
export const allowRulesSetting = 'taskPlanner.commands.allowed';

/** Where the rules made with "Allow this command for this workspace" are kept in the workspace state. */
export const allowRulesStateKey = 'taskPlanner.commandAllowRules';

/** Where a rule comes from: this workspace's stored rules, the user's settings, or the workspace's settings. */
export type AllowRuleSource = 'workspace' | 'userSetting' | 'workspaceSetting';

/**
 * A rule as the rules view lists it; `ignored`: a rule of the workspace's settings
 * (always: only the user's settings can allow commands), or one stored for this
 * workspace while it is in Restricted Mode.
 */
export interface ListedAllowRule {
  rule: CommandAllowRule;
  source: AllowRuleSource;
  ignored: boolean;
}

/** What the editor's allow list reads: the setting's values, the workspace state, trust; and how it reports a bad entry. */
export interface AllowListSources {
  /** The setting's value in the user's settings and in the workspace's (`inspect`), read at each call. */
  setting(): { user: unknown; workspace: unknown };
  /** The workspace's own storage (`ExtensionContext.workspaceState`): one per workspace. */
  state: vscode.Memento;
  /** Whether the workspace is trusted now (`vscode.workspace.isTrusted`), read at each call. */
  isTrusted(): boolean;
  /** Tells the user about entries of the setting that were left out (each distinct list once). */
  warn(problems: readonly string[]): void;
}

/**
 * The command allow rules in the editor: the user's setting, and, only while the
 * workspace is trusted, the rules stored for this workspace (rules the user made in the
 * command approval or typed in the rules view). The workspace's setting (a cloned
 * repository's `.vscode/settings.json`) never allows a command: its rules are listed as
 * ignored, trusted or not (the setting is `"scope": "application"` in package.json too). Everything is read at each call, so a rule
 * removed, a setting changed or trust withdrawn applies to the next command; a bad
 * entry is left out and reported once.
 */
export class EditorCommandAllowList implements CommandAllowList {
  private lastWarned = '';

  constructor(private readonly sources: AllowListSources) {}

  /** The rules in force now. */
  rules(): CommandAllowRule[] {
    return this.list()
      .filter((listed) => !listed.ignored)
      .map((listed) => listed.rule);
  }

  /** Every rule with its source, those ignored included (marked); a bad entry of the user's setting is reported. */
  list(): ListedAllowRule[] {
    const trusted = this.sources.isTrusted();
    const { user, workspace } = this.sources.setting();
    const fromUser = readAllowRules(user, `${allowRulesSetting} (user settings)`);
    const fromWorkspace = readAllowRules(workspace, `${allowRulesSetting} (workspace settings)`);
    this.report(fromUser.problems);
    return [
      ...this.stored().map((rule) => ({ rule, source: 'workspace' as const, ignored: !trusted })),
      ...fromUser.rules.map((rule) => ({ rule, source: 'userSetting' as const, ignored: false })),
      ...fromWorkspace.rules.map((rule) => ({ rule, source: 'workspaceSetting' as const, ignored: true })),
    ];
  }

  /**
   * Why the command `argv` cannot become a rule for this workspace (one that allows that
   * exact command), in the user's words, or `undefined` when it can: a trusted workspace,
   * not a blanket rule (`allowRuleProblem`), and not ending in `...`, which would make it a
   * rule for further arguments the user never saw.
   */
  problem(argv: readonly string[]): string | undefined {
    const problem = this.ruleProblem(argv);
    if (problem !== undefined || argv.at(-1) !== furtherArguments) return problem;
    return `its last word "${furtherArguments}" would make a rule that allows any further arguments; type that rule in Task Planner: Command allow rules instead`;
  }

  /** Why the typed rule `rule` (which may end in `...`) cannot be kept for this workspace, or `undefined` when it can. */
  ruleProblem(rule: CommandAllowRule): string | undefined {
    if (!this.sources.isTrusted()) return 'this workspace is in Restricted Mode, where its own allow rules are ignored';
    return allowRuleProblem(rule);
  }

  /**
   * Whether `command` can become a rule of this workspace that allows it where it runs (a
   * relative program only in the workspace folder; a project's own program by its path).
   */
  canAllow(command: CheckCommand): boolean {
    const words = command.program === undefined ? command.argv : [command.program, ...command.argv.slice(1)];
    return this.problem(words) === undefined && matchingAllowRule([words], { ...command, shell: false }) !== undefined;
  }

  /** Stores the exact command `argv` as a rule of this workspace (once); throws with the reason when `problem` has one. */
  async add(argv: readonly string[]): Promise<void> {
    await this.store(argv, this.problem(argv));
  }

  /**
   * Stores the typed rule `rule` (`npm test`, or `npm test ...` for further arguments) for
   * this workspace (once); throws with the reason when `ruleProblem` has one.
   */
  async addRule(rule: CommandAllowRule): Promise<void> {
    await this.store(rule, this.ruleProblem(rule));
  }

  /** Removes the stored rule `rule` of this workspace (rules in settings are edited there). */
  async remove(rule: CommandAllowRule): Promise<void> {
    const stored = this.stored();
    await this.sources.state.update(
      allowRulesStateKey,
      stored.filter((kept) => !sameAllowRule(kept, rule)),
    );
  }

  private async store(rule: CommandAllowRule, problem: string | undefined): Promise<void> {
    if (problem !== undefined) throw new Error(`The command cannot be allowed: ${problem}.`);
    const stored = this.stored();
    if (stored.some((kept) => sameAllowRule(kept, rule))) return;
    await this.sources.state.update(allowRulesStateKey, [...stored, [...rule]]);
  }

  /** The rules stored for this workspace, read through the same checks as the setting (the storage may have been edited). */
  private stored(): CommandAllowRule[] {
    return readAllowRules(this.sources.state.get<unknown>(allowRulesStateKey), 'the rules stored for this workspace').rules;
  }

  private report(problems: readonly string[]): void {
    const text = problems.join('\n');
    if (text === this.lastWarned) return;
    this.lastWarned = text;
    if (problems.length > 0) this.sources.warn(problems);
  }
}
