/** Longest request `/plan` accepts, in characters (as the "Plan task" input box). */
export const maxChatRequestChars = 20_000;

/** The chat participant's slash commands, as contributed in the manifest. */
export const chatCommands = ['plan', 'run', 'status'] as const;
/** One of `chatCommands`. */
export type ChatCommandName = (typeof chatCommands)[number];

/** What one chat request asks for. */
export type ChatCommand =
  | { kind: 'plan'; request: string }
  | { kind: 'run' }
  | { kind: 'status' }
  /** A message without a command: a question or an edit about the current plan. */
  | { kind: 'followUp'; text: string }
  /** Nothing to do: `message` tells the user what to write instead. */
  | { kind: 'problem'; message: string };

/**
 * Reads one chat request: its slash command (`undefined` without one) and the text after
 * it. `/plan` needs a request of 1 to `maxChatRequestChars` characters; `/run` and
 * `/status` ignore their text; text without a command is a follow-up about the current
 * plan. Never throws.
 */
export function parseChatCommand(command: string | undefined, prompt: string): ChatCommand {
  if (command === undefined || command === '') {
    const typed = typedCommand(prompt);
    if (typed) return parseChatCommand(typed.command, typed.rest);
    const text = withoutMention(prompt);
    if (text === '') return { kind: 'problem', message: 'Write /plan and what you want done, /run to start the plan, or /status to see the run.' };
    return { kind: 'followUp', text };
  }
  const text = prompt.trim();
  switch (command) {
    case 'plan':
      if (text === '') return { kind: 'problem', message: 'Say what to plan after /plan, e.g. "/plan add input validation to src/app.ts, then run npm test".' };
      if (text.length > maxChatRequestChars) {
        return { kind: 'problem', message: `The request has ${text.length} characters; keep it under ${maxChatRequestChars}.` };
      }
      return { kind: 'plan', request: text };
    case 'run':
      return { kind: 'run' };
    case 'status':
      return { kind: 'status' };
    default:
      return { kind: 'problem', message: `There is no /${command.slice(0, 40)} command here; use /plan, /run or /status.` };
  }
}

/** `@planner` typed again at the start of a message (the chat already addresses the participant). */
const mention = /^(?:@planner\b\s*)+/i;

/** `prompt` trimmed, without the `@planner` mentions typed at its start. */
function withoutMention(prompt: string): string {
  return prompt.trim().replace(mention, '').trim();
}

/**
 * A known command written as text: once `@planner` is the chat's participant, typing
 * "@planner /plan …" again leaves both in the prompt, and the chat reports no command.
 */
function typedCommand(prompt: string): { command: ChatCommandName; rest: string } | undefined {
  const match = /^\/([a-z]+)(?:\s+|$)/i.exec(withoutMention(prompt));
  const name = match?.[1]?.toLowerCase();
  const command = chatCommands.find((known) => known === name);
  return match && command ? { command, rest: withoutMention(prompt).slice(match[0].length) } : undefined;
}
