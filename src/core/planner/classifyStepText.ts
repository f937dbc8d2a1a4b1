import type { CommandContext } from './recognizeCommand';
import { recognizeToolAction, type ToolCall } from './recognizeToolAction';
import { actionVerbs } from './requestWords';

/**
 * How the heuristic planner executes one step text: built-in tool calls (`inOrder` when
 * each needs the one before), work for an agent (or, without a model, for a person), or a
 * question for the user.
 */
export type StepClassification =
  | { kind: 'tool'; calls: ToolCall[]; inOrder: boolean; flaky: boolean }
  | { kind: 'work'; agent: string; flaky: boolean }
  | { kind: 'clarification'; flaky: false };

const urlPattern = /\bhttps?:\/\/\S+/gi;
const ambiguity = /\b(not sure|unsure|unclear|tbd|to be decided|undecided|either\b.+\bor|which one|should (?:i|we)|do you (?:want|prefer)|ask (?:me|the user))\b|^which\b/i;
// An instruction ending with "?" ("Run npm test?", the end of "Could you add X and run npm test?") is still one.
const imperative = new RegExp(String.raw`^(?:${actionVerbs})\b`, 'i');
// "Can you run the tests?": a request put as a question is the request.
const politeRequest = new RegExp(String.raw`^(?:please\s+)?(?:can|could|would|will)\s+you\s+(?:please\s+)?(?=(?:${actionVerbs})\b)`, 'i');
const networkWords = /\b(?:fetch|download|api|http|https|network|web|online|search the web)\b/i;

/**
 * Decides what kind of step a piece of request text is (docs/architecture.md §5): an explicit question
 * (ending with "?" or "？", starting with "which") or ambiguity → clarification, unless it is a
 * request put as a question ("Can you run the tests?", "Run npm test?"); a plain tool action
 * (`recognizeToolAction`, its commands read against `context`) on workspace paths → tool
 * calls; otherwise work routed to an agent by its verbs (the agent's tools are
 * the hint). `flaky` marks work that touches the network or runs commands.
 */
export function classifyStepText(text: string, context: CommandContext = {}): StepClassification {
  const polite = politeRequest.exec(text.trim());
  const stated = polite ? text.trim().slice(polite[0].length) : text;
  const withoutUrls = stated.replace(urlPattern, ' ');
  const hasUrl = withoutUrls !== stated;
  const question = /[?？]\s*$/.test(withoutUrls.trim()) && !polite && !imperative.test(withoutUrls.trim());
  if (question || ambiguity.test(withoutUrls)) return { kind: 'clarification', flaky: false };

  const asked = stated.replace(/(?<!\s)\s*[?？]\s*$/, '');
  const action = hasUrl ? undefined : recognizeToolAction(asked, context);
  if (action) return { kind: 'tool', ...action, flaky: action.calls.some((call) => call.tool === 'run_command') };

  const flaky = hasUrl || networkWords.test(withoutUrls);
  if (/\b(?:tests?|testing|coverage|test suite)\b/i.test(withoutUrls)) return { kind: 'work', agent: 'tester', flaky };
  if (/\b(?:write|create|add|implement|fix|refactor|update|edit|change|rename|modify|remove|delete|move|build|generate|use)\b/i.test(withoutUrls)) {
    return { kind: 'work', agent: 'coder', flaky };
  }
  if (/\b(?:read|review|analy[sz]e|research|summari[sz]e|investigate|find|look|check|explain|inspect|understand|study)\b/i.test(withoutUrls)) {
    return { kind: 'work', agent: 'researcher', flaky };
  }
  return { kind: 'work', agent: 'default', flaky };
}
