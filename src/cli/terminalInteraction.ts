import { createInterface } from 'node:readline/promises';
import { deferAllInteraction } from '../core/engine/stepInteraction';
import type { ApprovalDecision, Interaction } from '../core/ports';
import { proposalTarget } from '../core/tools/proposalTarget';
import { askManualStep } from './manualStepQuestion';

/**
 * The CLI's user: questions on the terminal when `interactive` (one at a time, on
 * stderr), else every request deferred. With `yes`, approvals are granted without asking.
 * Typing "d" defers a request (or "l" a manual step): the run then ends `waiting`.
 */
export function terminalInteraction(options: { interactive: boolean; yes: boolean }): Interaction {
  let queue: Promise<unknown> = Promise.resolve();
  const ask = (question: string, signal: AbortSignal): Promise<string> => {
    const next = queue.then(async () => {
      const readline = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return (await readline.question(question, { signal })).trim();
      } finally {
        readline.close();
      }
    });
    queue = next.catch(() => undefined);
    return next;
  };
  const approve = async (text: string, signal: AbortSignal): Promise<ApprovalDecision | 'defer'> => {
    if (options.yes) return { approved: true };
    if (!options.interactive) return 'defer';
    const answer = (await ask(`${text}\nApprove? [y]es / [n]o / [d]efer: `, signal)).toLowerCase();
    if (answer === 'd' || answer === 'defer') return 'defer';
    return answer === 'y' || answer === 'yes' ? { approved: true } : { approved: false, reason: 'Rejected on the terminal.' };
  };
  return {
    requestApproval(request, signal) {
      const text =
        request.kind === 'command'
          ? `Step ${request.stepId} (${request.title}) wants to run:\n  ${request.argv.map((arg) => JSON.stringify(arg)).join(' ')}\n  in ${request.cwd || '.'}${request.shell ? ' through a shell' : ''}`
          : `Step ${request.stepId} (${request.title}) wants to ${request.operation} ${proposalTarget(request.proposal)}:\n${request.proposal.diff}`;
      return approve(text, signal);
    },
    async askClarification(request, signal) {
      if (!options.interactive) return deferAllInteraction.askClarification(request, signal);
      const suggestions = request.suggestions?.length ? `\n  suggestions: ${request.suggestions.map((item, index) => `${index + 1}) ${item}`).join('  ')}` : '';
      const answer = await ask(`Step ${request.stepId} asks: ${request.question}${suggestions}\nAnswer (empty to defer): `, signal);
      if (answer === '') return 'defer';
      const pick = Number(answer);
      return Number.isInteger(pick) && request.suggestions?.[pick - 1] !== undefined ? request.suggestions[pick - 1] as string : answer;
    },
    async requestReview(request, signal) {
      if (!options.interactive) return deferAllInteraction.requestReview(request, signal);
      const answer = (await ask(`Step ${request.stepId} asks for your review:\n${request.prompt}\nApprove? [y]es / [n]o / [d]efer: `, signal)).toLowerCase();
      if (answer === 'd' || answer === 'defer' || answer === '') return 'defer';
      const notes = await ask('Notes (optional): ', signal);
      return { approved: answer === 'y' || answer === 'yes', ...(notes ? { notes } : {}) };
    },
    async requestManualStep(request, signal) {
      if (!options.interactive) return deferAllInteraction.requestManualStep(request, signal);
      return askManualStep(ask, request, signal);
    },
  };
}
