import { resumeRun } from '../core/engine/resumeRun';
import type { ResumeOptions } from '../core/engine/runOptions';
import type { CliIo } from './cliIo';
import { followRun } from './executeCliRun';
import { type CliRunOptions, engineOptions } from './runCommand';

/** Answers given on the command line, by step id. */
export type CliAnswers = Pick<ResumeOptions, 'approvals' | 'answers' | 'reviews' | 'manual'>;

/** `resume <runId>`: continues a journaled run with the given answers. */
export async function resumeCommand(runId: string, answers: CliAnswers, options: CliRunOptions, io: CliIo): Promise<number> {
  const handle = resumeRun(runId, { ...engineOptions(options, io), ...answers });
  return followRun(handle, undefined, options.workspace, options.json, io);
}
