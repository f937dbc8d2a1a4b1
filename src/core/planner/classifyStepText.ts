import type { StepKind } from '../plan/planSchema';

/** How the heuristic planner executes one step text. */
export type StepClassification =
  | { kind: 'tool'; tool: string; args: Record<string, unknown>; flaky: boolean }
  | { kind: 'agent'; agent: string; flaky: boolean }
  | { kind: Extract<StepKind, 'clarification'>; flaky: false };

const urlPattern = /\bhttps?:\/\/\S+/gi;
const ambiguity = /\b(not sure|unsure|unclear|tbd|to be decided|undecided|either\b.+\bor|which one|should (?:i|we)|do you (?:want|prefer)|ask (?:me|the user))\b/i;
const runVerb = /\b(?:run|execute|exec|invoke|launch)\b/i;
const knownCommands = /^(?:npm|npx|yarn|pnpm|node|git|make|pytest|python3?|cargo|go|tsc|eslint|prettier|jest|mocha|vitest|deno|bun|docker|mvn|gradle|dotnet|ls|cat|grep|echo)\b/;
const networkWords = /\b(?:fetch|download|api|http|https|network|web|online|search the web)\b/i;
const pathToken = /(?:^|[\s'"(])((?:\.{0,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\.[A-Za-z0-9]{1,8}|[\w@.-]+(?:\/[\w@.-]+)+\/?)(?=$|[\s'",;:)!?])/;

/**
 * Decides what kind of step a piece of request text is (DESIGN §5): an explicit question
 * or ambiguity → clarification; a command to run, or a file to read, delete, list or search
 * named plainly → a direct tool call; otherwise an agent chosen by the verbs, whose tools
 * are the hint. `flaky` marks work that touches the network or external commands.
 */
export function classifyStepText(text: string): StepClassification {
  const withoutUrls = text.replace(urlPattern, ' ');
  const hasUrl = withoutUrls !== text;
  if (/\?\s*$/.test(withoutUrls.trim()) || ambiguity.test(withoutUrls)) return { kind: 'clarification', flaky: false };

  const command = commandIn(withoutUrls);
  if (command) return { kind: 'tool', tool: 'run_command', args: { argv: command }, flaky: true };

  const path = quoted(withoutUrls) ?? pathToken.exec(withoutUrls)?.[1];
  if (!hasUrl && path !== undefined) {
    if (/^\s*(?:read|open|show|print|cat)\b/i.test(withoutUrls)) return { kind: 'tool', tool: 'read_file', args: { path }, flaky: false };
    if (/^\s*(?:delete|remove)\b/i.test(withoutUrls) && !/\b(?:function|line|method|class|code|test)\b/i.test(withoutUrls)) {
      return { kind: 'tool', tool: 'delete_file', args: { path }, flaky: false };
    }
    if (/^\s*list\b/i.test(withoutUrls)) return { kind: 'tool', tool: 'list_files', args: { glob: `${path.replace(/\/$/, '')}/**` }, flaky: false };
  }
  const searchFor = /^\s*(?:search|grep|find)\s+(?:for\s+)?(?:`([^`]+)`|"([^"]+)"|'([^']+)')/i.exec(withoutUrls);
  if (searchFor) return { kind: 'tool', tool: 'search_text', args: { pattern: searchFor[1] ?? searchFor[2] ?? searchFor[3] }, flaky: false };

  const flaky = hasUrl || networkWords.test(withoutUrls);
  if (/\b(?:tests?|testing|coverage|test suite)\b/i.test(withoutUrls)) return { kind: 'agent', agent: 'tester', flaky };
  if (/\b(?:write|create|add|implement|fix|refactor|update|edit|change|rename|modify|remove|delete|move|build|generate|use)\b/i.test(withoutUrls)) {
    return { kind: 'agent', agent: 'coder', flaky };
  }
  if (/\b(?:read|review|analy[sz]e|research|summari[sz]e|investigate|find|look|check|explain|inspect|understand|study)\b/i.test(withoutUrls)) {
    return { kind: 'agent', agent: 'researcher', flaky };
  }
  return { kind: 'agent', agent: 'default', flaky };
}

/** The argv of a command the text asks to run: in backticks after a run verb, or a well-known command after it. */
function commandIn(text: string): string[] | undefined {
  const verb = runVerb.exec(text);
  if (!verb) return undefined;
  const after = text.slice(verb.index + verb[0].length);
  const ticked = /`([^`]+)`/.exec(after);
  if (ticked?.[1]) return splitArgv(ticked[1]);
  const plain = after.trim().replace(/^(?:the\s+)?(?:command\s+)?/i, '');
  if (!knownCommands.test(plain)) return undefined;
  const line = plain.split(/(?:[.;](?:\s|$)|,\s|\s+(?:and|to|so|then)\s)/)[0]!.trim();
  return splitArgv(line);
}

function quoted(text: string): string | undefined {
  const ticked = /`([^`\s]+)`/.exec(text)?.[1];
  return ticked !== undefined && /[./]/.test(ticked) ? ticked : undefined;
}

/** Splits a command line into argv, honouring single and double quotes (no shell expansion). */
function splitArgv(line: string): string[] {
  const argv: string[] = [];
  const token = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (let match = token.exec(line); match; match = token.exec(line)) {
    argv.push(match[1]?.replace(/\\(.)/g, '$1') ?? match[2] ?? match[3]!);
  }
  return argv;
}
