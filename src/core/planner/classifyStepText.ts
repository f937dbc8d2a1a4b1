import { recognizeToolAction, type ToolCall } from './recognizeToolAction';

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
const ambiguity = /\b(not sure|unsure|unclear|tbd|to be decided|undecided|either\b.+\bor|which one|should (?:i|we)|do you (?:want|prefer)|ask (?:me|the user))\b/i;
const networkWords = /\b(?:fetch|download|api|http|https|network|web|online|search the web)\b/i;

/**
 * Decides what kind of step a piece of request text is (docs/architecture.md §5): an explicit question
 * or ambiguity → clarification; a plain tool action (`recognizeToolAction`) on workspace
 * paths → tool calls; otherwise work routed to an agent by its verbs (the agent's tools are
 * the hint). `flaky` marks work that touches the network or runs commands.
 */
export function classifyStepText(text: string): StepClassification {
  const withoutUrls = text.replace(urlPattern, ' ');
  const hasUrl = withoutUrls !== text;
  if (/\?\s*$/.test(withoutUrls.trim()) || ambiguity.test(withoutUrls)) return { kind: 'clarification', flaky: false };

  const action = hasUrl ? undefined : recognizeToolAction(text);
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
