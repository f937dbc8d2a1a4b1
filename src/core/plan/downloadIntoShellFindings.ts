import type { ToolRegistry } from '../tools/tool';
import { toolEffectOf } from '../tools/toolEffectOf';
import type { Plan } from './planSchema';

/** A step of a plan that runs what a download sends, unseen: `curl … | sh`, `bash <(wget …)`, `iwr … | iex`. */
export interface DownloadIntoShell {
  stepId: string;
  /** The command as the step writes it, on one line, at most 200 characters. */
  command: string;
}

// Programs that fetch a URL, and programs that run what they are fed (a shell, an interpreter, PowerShell's iex).
const downloaders = /\b(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod)\b/i;
const runners = new Set([
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'ash', 'csh', 'tcsh', 'pwsh', 'powershell', 'iex', 'invoke-expression',
  'python', 'python2', 'python3', 'perl', 'ruby', 'node', 'php', 'source',
]);
// Words before the program that only change how it runs: `sudo -E bash`, `env X=1 sh`.
const prefixes = new Set(['sudo', 'env', 'doas', 'exec', 'command', 'nohup', 'time']);
const substituted = /(?:\$\(|<\(|`)\s*(?:curl|wget|fetch|iwr|irm)\b/i;

/**
 * The steps of `plan` whose command pipes a download into a shell or an interpreter, or runs one through a substitution
 * (docs/architecture.md §3): a command step's argv (`["sh", "-c", "curl … | sh"]`) and its command checks, and the text
 * of a model's or a person's step (a hostile file read while planning can ask for one). What runs is whatever the
 * server sends at that moment, which no review shows. One finding per step. Linear in the plan's text.
 */
export function downloadIntoShellFindings(plan: Pick<Plan, 'steps'>, registry: ToolRegistry | undefined): DownloadIntoShell[] {
  const found: DownloadIntoShell[] = [];
  for (const step of plan.steps) {
    const texts: string[] = (step.checks ?? []).flatMap((check) => (check.kind === 'command' && Array.isArray(check.argv) ? [check.argv.join(' ')] : []));
    const argv = step.args?.['argv'];
    if (step.kind === 'tool' && toolEffectOf(step.tool ?? '', registry) === 'command' && Array.isArray(argv)) texts.unshift(argv.map(String).join(' '));
    if (step.kind !== 'tool') texts.unshift(`${step.title}\n${step.input ?? ''}`);
    const command = texts.flatMap((text) => text.split(/[\n;]|&&|\|\|/)).find(runsDownload);
    if (command !== undefined) found.push({ stepId: step.id, command: oneLine(command) });
  }
  return found;
}

/** Whether one command (no `;`, `&&`, `||` or line break in it) feeds a download to a program that runs it. */
function runsDownload(command: string): boolean {
  if (!downloaders.test(command)) return false;
  const parts = command.split('|');
  const first = parts.findIndex((part) => downloaders.test(part));
  if (parts.slice(first + 1).some((part) => runners.has(programOf(part)))) return true;
  return substituted.test(command) && parts.some((part) => runners.has(programOf(part)));
}

/** The program a command part runs, lower case, without its folder, after `sudo`, `env` and their options and variables. */
function programOf(part: string): string {
  const words = part
    .trim()
    .split(/\s+/)
    .map(bare);
  for (const word of words) {
    const name = (word.split(/[\\/]/).pop() ?? '').toLowerCase();
    if (name === '' || prefixes.has(name) || name.startsWith('-') || name.includes('=')) continue;
    return name.replace(/\.exe$/, '');
  }
  return '';
}

/** `word` without the quotes, `$(` and `<(` before it and the quotes and punctuation after it (`"$(curl`, `sh\`,`). */
function bare(word: string): string {
  let start = 0;
  let end = word.length;
  while (start < end && '"\'`$(<'.includes(word[start] as string)) start++;
  while (end > start && '"\'`),.:'.includes(word[end - 1] as string)) end--;
  return word.slice(start, end);
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
