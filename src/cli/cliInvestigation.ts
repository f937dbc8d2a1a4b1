import { defaultInvestigationBudget, type InvestigationBudget } from '../core/planner/investigationBudget';
import type { PlanningQuestion } from '../core/planner/investigateRequest';
import type { PlanBasis } from '../core/plan/planSchema';
import { UsageError, type CliIo } from './cliIo';

/** The investigation flags of `plan`, as given. */
export interface CliInvestigationOptions {
  /** `--investigate-calls N`: tool calls the model may make before planning (0: it plans without looking). */
  investigateCalls?: string | undefined;
  /** `--investigate-tokens N`: tokens the investigation may take. */
  investigateTokens?: string | undefined;
  /** `--investigate-seconds N`: how long it may take. */
  investigateSeconds?: string | undefined;
}

/** The investigation budget from the flags, each absent one at `defaultInvestigationBudget`; a bad value is a `UsageError`. */
export function cliInvestigationBudget(options: CliInvestigationOptions): InvestigationBudget {
  return {
    maxToolCalls: wholeNumber(options.investigateCalls, '--investigate-calls', 200) ?? defaultInvestigationBudget.maxToolCalls,
    maxTokens: wholeNumber(options.investigateTokens, '--investigate-tokens', 2_000_000) ?? defaultInvestigationBudget.maxTokens,
    maxSeconds: wholeNumber(options.investigateSeconds, '--investigate-seconds', 3600) ?? defaultInvestigationBudget.maxSeconds,
  };
}

function wholeNumber(text: string | undefined, flag: string, most: number): number | undefined {
  if (text === undefined) return undefined;
  const value = text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isInteger(value) || value < 0 || value > most) throw new UsageError(`${flag} must be a whole number from 0 to ${most}, got "${text}".`);
  return value;
}

/**
 * How `plan` answers the planner's questions, numbered Q1, Q2… in the order asked: an
 * `--answer Qn=TEXT` given in advance; else on a terminal, asked there (a suggestion's number
 * picks it, an empty line leaves the choice to the model); else with `--yes` the first
 * suggestion; else no answer (the model chooses and says so in the plan). Each question and
 * the answer used are written to stderr.
 */
export function cliPlanningQuestions(
  io: CliIo,
  options: { yes: boolean; answers: Readonly<Record<string, string>> },
): (question: PlanningQuestion, signal: AbortSignal) => Promise<string | undefined> {
  let asked = 0;
  return async (question, signal) => {
    const id = `Q${++asked}`;
    const suggestions =
      question.suggestions.length > 0 ? `\n  suggestions: ${question.suggestions.map((item, index) => `${index + 1}) ${item}`).join('  ')}` : '';
    const given = options.answers[id];
    if (given !== undefined) {
      io.err(`The planner asks (${id}): ${question.question}${suggestions}\n  answered with --answer ${id}: ${given}`);
      return given;
    }
    if (io.interactive) {
      const typed = await io.ask(`The planner asks (${id}): ${question.question}${suggestions}\nAnswer (empty: let the planner choose): `, signal);
      const pick = Number(typed);
      if (typed === '') return undefined;
      return Number.isInteger(pick) && question.suggestions[pick - 1] !== undefined ? question.suggestions[pick - 1] : typed;
    }
    const first = options.yes ? question.suggestions[0] : undefined;
    const how = first === undefined ? `no answer: the planner chooses (answer it with --answer ${id}=TEXT)` : `--yes took the first suggestion: ${first}`;
    io.err(`The planner asks (${id}): ${question.question}${suggestions}\n  ${how}`);
    return first;
  };
}

/** "Based on: 2 files read (a.ts, b.ts), 1 search ("parse(")", then each answer; empty without a basis. */
export function describeBasis(basis: PlanBasis | undefined): string {
  if (basis === undefined) return '';
  const files = basis.files.length === 0 ? '' : ` (${basis.files.slice(0, 10).join(', ')}${basis.files.length > 10 ? ', …' : ''})`;
  const searches =
    basis.searches.length === 0
      ? ''
      : ` (${basis.searches
          .slice(0, 5)
          .map((search) => JSON.stringify(search))
          .join(', ')}${basis.searches.length > 5 ? ', …' : ''})`;
  const lines = [
    `Based on: ${basis.files.length} file${basis.files.length === 1 ? '' : 's'} read${files}, ${basis.searches.length} search${basis.searches.length === 1 ? '' : 'es'}${searches}`,
    ...basis.answers.map((answer) => `  you answered "${answer.question}": ${answer.answer === '' ? '(no answer: the planner chose)' : answer.answer}`),
  ];
  return lines.join('\n');
}
