import { deferAllInteraction } from '../core/engine/stepInteraction';
import type { ApprovalDecision, ApprovalRequest, Interaction } from '../core/interactionPorts';
import {
  describeChangedInRun,
  describeCommandInput,
  describeProgramHelper,
  describeProjectProgram,
  describeRepositoryPrograms,
  projectProgramOrigin,
} from '../core/tools/commandApprovalText';
import { boundedFeedback } from '../core/tools/approvalFeedback';
import { proposalTarget } from '../core/tools/proposalTarget';
import { describeRetry } from '../core/tools/retryNoteText';
import { shownToolInput, toolCallTarget } from '../core/tools/toolCallApprovalText';
import { askManualStep } from './manualStepQuestion';
import type { CliIo } from './cliIo';
import { oneLine } from '../core/text/oneLine';
import { visibleInvisibles } from '../shared/visibleCharacters';
import { capText, textCaps } from '../core/text/capText';
import { collapseBlankLines } from '../core/text/collapseBlankLines';

/** Longest step title or suggestion the terminal shows, in characters (on one line). */
const maxNameLength = 200;

/** A question or prompt from a plan or a model as the terminal asks it: bounded, runs of blank lines collapsed. */
function shownPrompt(text: string): string {
  return capText(collapseBlankLines(text), textCaps.message);
}

/** What the terminal shows for each kind of approval, after "Step <id> (<title>) wants to". */
const interruptedNote = ' (the step was making this change when the run was interrupted, and the file changed since: it may already be in it; compare first)';

const shownApproval: { [Kind in ApprovalRequest['kind']]: (request: Extract<ApprovalRequest, { kind: Kind }>) => string } = {
  command: (request) =>
    `run:\n  ${request.argv.map((arg) => JSON.stringify(arg)).join(' ')}\n  in ${request.cwd || '.'}${request.shell ? ' through a shell' : ''}` +
    (request.program
      ? `\n  program: ${describeProjectProgram(request.argv[0] ?? '', request.program)}, from ${projectProgramOrigin(request.program)}, not PATH`
      : '') +
    (request.helper ? `\n  helper: ${describeProgramHelper(request.argv, request.helper)}, from ${projectProgramOrigin(request.helper)}, not PATH` : '') +
    (request.repositoryPrograms?.length ? `\n  ${describeRepositoryPrograms(request.repositoryPrograms)}` : '') +
    (request.stdin ? describeCommandInput(request.stdin).map((line) => `\n  ${line}`).join('') : '') +
    (request.mayHaveRun
      ? '\n  this step started the same command before the run was interrupted: it may already have run, so --yes does not answer this; ' +
        'run it again only if running it twice is safe'
      : '') +
    // As the editor says it: a newcomer's --allow-command "npm test" still asked after a step bumped package.json, and nothing said why.
    (request.changedInRun?.length
      ? `\n  this run changed ${describeChangedInRun(request.changedInRun)}, which the command reads to decide what it runs: allow rules do not apply`
      : '') +
    (request.notAllowedBecause === undefined ? '' : `\n  asks although you have a rule: ${oneLine(request.notAllowedBecause)}`),
  file: (request) =>
    `${request.operation} ${proposalTarget(request.proposal)}${request.outsideScope ? ' (outside the files the step said it would change)' : ''}${
      request.interrupted ? interruptedNote : ''
    }:\n${
      // a line that differs only by a byte order mark or a zero-width character must not look unchanged
      visibleInvisibles(request.proposal.diff)
    }`,
  directory: (request) => `create the directory ${request.path}`,
  tool: (request) => `call ${toolCallTarget(request)} with:\n${shownToolInput(request.input)}`,
};

/** An approval request as the terminal shows it: what would run or change, in full. */
export function describeApprovalForTerminal(request: ApprovalRequest): string {
  const retry = request.retry === undefined ? '' : `\n  ${describeRetry(request.retry)}`;
  // A step without a title of its own is titled by its id: "Step usage (usage)" read as two things.
  const title = oneLine(request.title, maxNameLength);
  const step = title === '' || title === request.stepId ? request.stepId : `${request.stepId} (${title})`;
  return `Step ${step} wants to ${(shownApproval[request.kind] as (request: ApprovalRequest) => string)(request)}${retry}`;
}

/**
 * The CLI's user: questions on the terminal through `io.ask` when `io.interactive`, else
 * every request deferred. With `yes`, approvals are granted without asking, except a
 * command that may already have run before an interruption. Typing "f" rejects with
 * feedback where a model does the step (asked for next: its agent is told and proposes again). Typing "d"
 * defers a request (or "l" a manual step): the run then ends `waiting`.
 */
export function terminalInteraction(io: CliIo, options: { yes: boolean }): Interaction {
  const approve = async (text: string, signal: AbortSignal, blanket: boolean, heard: boolean): Promise<ApprovalDecision | 'defer'> => {
    if (options.yes && blanket) return { approved: true };
    if (!io.interactive) return 'defer';
    // Feedback is offered only where a model does the step's work and hears it (`ApprovalRequest.feedbackHeard`).
    const offered = heard ? ' / [f]eedback: no, and say what to do instead' : '';
    let question = `${text}\nApprove? [y]es / [n]o${offered} / [d]efer: `;
    for (;;) {
      const answer = (await io.ask(question, signal)).toLowerCase();
      // Enter alone defers, as at a manual step or a review: it rejected the change, and a tick pressed past was lost.
      if (answer === '' || answer === 'd' || answer === 'defer') return 'defer';
      if (answer === 'y' || answer === 'yes') return { approved: true };
      const asksFeedback = heard && (answer === 'f' || answer === 'feedback');
      if (answer === 'n' || answer === 'no' || answer === 'f' || answer === 'feedback') {
        const feedback = asksFeedback ? boundedFeedback(await io.ask('What should the step do instead? ', signal)) : undefined;
        // No reason: the user typed none (the summary says "rejected by you", and nothing they did not say).
        return { approved: false, ...(feedback === undefined ? {} : { feedback }) };
      }
      // A typo ("ye") rejected the change: asked again, as a manual step asks.
      question = `Type y (yes), n (no)${heard ? ', f (feedback)' : ''} or d (defer): `;
    }
  };
  return {
    requestApproval(request, signal) {
      // A command that may have run, or a change that may already be in its file, is the user's call: --yes does not answer it.
      const mayBeDone = request.kind === 'command' ? request.mayHaveRun === true : request.kind === 'file' && request.interrupted === true;
      return approve(describeApprovalForTerminal(request), signal, !mayBeDone, request.feedbackHeard === true);
    },
    async askClarification(request, signal) {
      if (!io.interactive) return deferAllInteraction.askClarification(request, signal);
      const listed = request.suggestions?.map((item, index) => `${index + 1}) ${oneLine(item, maxNameLength)}`).join('  ');
      const suggestions = listed ? `\n  suggestions: ${listed}` : '';
      const answer = await io.ask(`Step ${request.stepId} asks: ${shownPrompt(request.question)}${suggestions}\nAnswer (empty to defer): `, signal);
      if (answer === '') return 'defer';
      const pick = Number(answer);
      return Number.isInteger(pick) && request.suggestions?.[pick - 1] !== undefined ? request.suggestions[pick - 1] as string : answer;
    },
    async requestReview(request, signal) {
      if (!io.interactive) return deferAllInteraction.requestReview(request, signal);
      const question = `Step ${request.stepId} asks for your review:\n${shownPrompt(request.prompt)}\nApprove? [y]es / [n]o / [d]efer: `;
      const answer = (await io.ask(question, signal)).toLowerCase();
      if (answer === 'd' || answer === 'defer' || answer === '') return 'defer';
      const notes = await io.ask('Notes (optional): ', signal);
      return { approved: answer === 'y' || answer === 'yes', ...(notes ? { notes } : {}) };
    },
    async requestManualStep(request, signal) {
      if (!io.interactive) return deferAllInteraction.requestManualStep(request, signal);
      return askManualStep(io.ask, request, signal);
    },
  };
}
