import assert from 'node:assert/strict';
import { z } from 'zod';
import { workspaceTools } from '../../../../src/core/tools/builtinTools';
import {
  chooseExtensionTools,
  defaultToolSectionTokens,
  fitToolBudget,
  isDeniedTool,
  promptFit,
  toolPatternMatches,
  toolSectionBudget,
  toolTokens,
} from '../../../../src/core/tools/toolOffer';
import type { Tool } from '../../../../src/core/tools/tool';

/** `vscode.lm.tools` in code-server 4.139.1 (VS Code 1.139.1) without Copilot, with Task Planner and the test fixture: 34 tools. */
const measured = [
  'setup_tools_createNewWorkspace', 'vscode_listCodeUsages', 'vscode_renameSymbol', 'vscode_searchExtensions_internal', 'inline_chat_exit',
  'vscode_get_terminal_confirmation', 'get_terminal_output', 'kill_terminal', 'send_to_terminal', 'terminal_selection', 'terminal_last_command',
  'run_task', 'get_task_output', 'create_and_run_task', 'renderMermaidDiagram', 'planning_setup_plan', 'planning_add_step', 'planning_update_step',
  'planning_mark_step', 'planning_clear_plan', 'planning_read_plan', 'fixture_echo', 'run_in_terminal', 'vscode_editFile_internal',
  'vscode_askQuestions', 'vscode_reviewPlan', 'manage_todo_list', 'vscode_get_confirmation', 'vscode_get_confirmation_with_options',
  'vscode_get_modified_files_confirmation', 'task_complete', 'runSubagent', 'runTests', 'testFailure',
].map((name) => ({ name }));

function tool(name: string, description = 'Does a thing.'): Tool {
  return { name, description, inputSchema: z.object({ text: z.string() }), effects: 'external', run: async () => ({}) } as unknown as Tool;
}

describe('toolOffer', () => {
  it('offers no other extension\'s tool unless the user names it (the default is none)', () => {
    assert.deepEqual(chooseExtensionTools(measured, []), []);
  });

  it('never offers VS Code\'s internal, chat-control and terminal tools or our planning_* tools, even for "*"', () => {
    const offered = chooseExtensionTools(measured, ['*']).map((entry) => entry.name);
    assert.deepEqual(offered, [
      'vscode_listCodeUsages',
      'vscode_renameSymbol',
      'run_task',
      'get_task_output',
      'create_and_run_task',
      'fixture_echo',
      'runTests',
      'testFailure',
    ]);
    for (const name of [
      'vscode_editFile_internal',
      'inline_chat_exit',
      'task_complete',
      'runSubagent',
      'planning_add_step',
      'run_in_terminal',
      'vscode_get_confirmation_with_options',
    ]) {
      assert.equal(isDeniedTool(name), true, name);
    }
    assert.equal(measured.length - offered.length, 26);
  });

  it('orders the chosen tools by the first pattern they match, exact names and the vscode__ prefix alike', () => {
    const offered = chooseExtensionTools(measured, ['vscode__runTests', 'RUN_*', 'fixture_echo', '', 'run_task']).map((entry) => entry.name);
    assert.deepEqual(offered, ['runTests', 'run_task', 'fixture_echo']);
  });

  it('matches * as any characters and nothing else as special', () => {
    assert.equal(toolPatternMatches('mcp_*_query', 'mcp_db_query'), true);
    assert.equal(toolPatternMatches('a.b', 'axb'), false);
    assert.equal(toolPatternMatches('a.b', 'a.b'), true);
    assert.equal(toolPatternMatches('run', 'run_task'), false);
  });

  it('keeps the fixed tools and drops the least relevant extension tools that do not fit', () => {
    const fixed = [...workspaceTools];
    const fixedTokens = fixed.reduce((sum, entry) => sum + toolTokens(entry), 0);
    const small = tool('vscode__small');
    const large = tool('vscode__large', 'word '.repeat(400));
    const last = tool('vscode__last');
    const budget = fixedTokens + toolTokens(small) + toolTokens(last) + 10;
    const fitted = fitToolBudget(fixed, [small, large, last], budget);
    assert.deepEqual(fitted.tools.map((entry) => entry.name), [...fixed.map((entry) => entry.name), 'vscode__small', 'vscode__last']);
    assert.deepEqual(fitted.dropped, ['vscode__large']);
    assert.equal(fitted.tokens, budget - 10);
    assert.deepEqual(fitToolBudget(fixed, [small], 10).dropped, ['vscode__small']);
    assert.equal(fitToolBudget(fixed, [small], 10).tools.length, fixed.length);
  });

  it('gives the tool section a quarter of a known context, else the default; a prompt fits when its tools and the allowance do', () => {
    assert.equal(toolSectionBudget(32_768), 8_192);
    assert.equal(toolSectionBudget(0), defaultToolSectionTokens);
    assert.deepEqual(promptFit(8_192, 2_000), { fits: true, needed: 8_000 });
    assert.deepEqual(promptFit(4_096, 2_000), { fits: false, needed: 8_000 });
  });
});
