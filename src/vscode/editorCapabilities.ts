import { homedir } from 'node:os';
import { isAbsolute, join, normalize } from 'node:path';
import * as vscode from 'vscode';
import type { CapabilityCatalogue } from '../core/capabilities/capabilityCatalogue';
import { readCapabilities, type SkillFolder } from '../core/capabilities/readCapabilities';
import type { WorkspaceFs } from '../core/workspacePorts';
import { createVscodeWorkspaceFs } from './vscodeWorkspaceFs';

/** The most skills folders of the user's setting that are read. */
const maxUserFolders = 10;

/**
 * The user's own skills folders: the `taskPlanner.skills.folders` setting as the user's
 * settings give it (the setting is application-scoped, and only its user-level value is
 * read here all the same, so a workspace can never point the extension at a folder). `~`
 * means the home folder; a relative path is refused with a warning in `log`.
 */
export function userSkillFolders(log: Pick<vscode.LogOutputChannel, 'warn'>, allowHardLinks: boolean): SkillFolder[] {
  const value = vscode.workspace.getConfiguration('taskPlanner').inspect<unknown>('skills.folders')?.globalValue;
  const entries = Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '') : [];
  return entries.slice(0, maxUserFolders).flatMap((entry) => {
    const trimmed = entry.trim();
    const path = trimmed === '~' || trimmed.startsWith('~/') ? join(homedir(), trimmed.slice(1)) : trimmed;
    if (!isAbsolute(path)) {
      log.warn(`taskPlanner.skills.folders: "${trimmed}" is not an absolute path; it was not read.`);
      return [];
    }
    const folder = normalize(path);
    return [{ label: folder, fs: createVscodeWorkspaceFs(vscode.Uri.file(folder), { allowHardLinks }) }];
  });
}

/**
 * The catalogue of `workspace` and the user's skills folders (`readCapabilities`); every
 * file that could not be used is a warning in `log` naming it and the problem. Read in
 * Restricted Mode too: instructions and skills only shape what the model is told, and
 * whatever it then asks for meets the same approvals and Restricted Mode refusals.
 */
export async function readEditorCapabilities(
  workspace: WorkspaceFs,
  log: Pick<vscode.LogOutputChannel, 'warn'>,
  options: { allowHardLinks: boolean; signal?: AbortSignal },
): Promise<CapabilityCatalogue> {
  const catalogue = await readCapabilities(workspace, {
    userSkillFolders: userSkillFolders(log, options.allowHardLinks),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  for (const diagnostic of catalogue.diagnostics) log.warn(`Skills and instructions: ${diagnostic.file}: ${diagnostic.message}`);
  return catalogue;
}
