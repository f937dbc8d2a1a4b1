import { errorMessage } from '../../shared/errorMessage';
import { parsePlan } from './parsePlan';
import type { Plan } from './planSchema';
import { validatePlan, type ValidatePlanOptions } from './validatePlan';
import { visibleDirection } from '../text/visibleDirection';
import { capText } from '../text/capText';
import { visibleControls } from '../../shared/visibleCharacters';

/** Longest file name `planFileName` makes, in characters, before `.plan.json`. */
export const maxPlanFileStem = 40;
/** Most words of the title `planFileName` makes a file name of. */
export const maxPlanFileWords = 6;
/** Most problems `planFileProblemsMessage` lists; the rest are counted. */
export const maxProblemsListed = 5;

// Names Windows reserves for devices, whatever the extension.
const reservedNames = /^(con|prn|aux|nul|com\d|lpt\d)$/;

/**
 * The file name "Save plan as file" proposes for a plan with `objective`: the words of its title (its first line that
 * has a word: an imported plan's objective goes on with every note of its file) in lower case ASCII letters and digits
 * joined by `-` (accents dropped), at most `maxPlanFileWords` words and `maxPlanFileStem` characters cut at a word, then
 * `.plan.json`; `plan.plan.json` when no word is left. Never a path, a hidden file or a name Windows reserves.
 */
export function planFileName(objective: string): string {
  const wordsOf = (line: string): string[] =>
    line
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim()
      .split(' ')
      .filter((word) => word !== '');
  const words = objective.split(/\r\n|\r|\n/).map(wordsOf).find((line) => line.length > 0) ?? [];
  let stem = '';
  for (const word of words.slice(0, maxPlanFileWords)) {
    const next = stem === '' ? word : `${stem}-${word}`;
    if (next.length > maxPlanFileStem) break;
    stem = next;
  }
  if (stem === '') stem = (words[0] ?? 'plan').slice(0, maxPlanFileStem);
  return `${reservedNames.test(stem) ? `plan-${stem}` : stem}.plan.json`;
}

/**
 * The path a save dialog returned, without the extension the dialog added to a name that
 * already had one (`x.plan.json.json`, `x.PLAN.JSON.plan.json`, `x.json.plan.json` become
 * `x.plan.json`, `x.PLAN.JSON`, `x.json`); any other path unchanged.
 */
export function withoutAddedExtension(path: string): string {
  // Dialogs compare only the last dot-segment with a filter's extension, case-sensitively.
  return path.replace(/^(.*[\\/])?([^\\/]+?\.(?:plan\.)?json)(?:\.plan)?\.json$/i, '$1$2');
}

/**
 * The text "Save plan as file" writes: the canonical plan as JSON indented by two spaces, ending in a newline. Every
 * character that shows nothing or acts on the text around it (`visibleControls`: zero-width and tag characters, direction
 * controls) is written as its JSON escape `\uXXXX`, which reads back as the same character: whoever opens the file (a
 * reviewer, another tool's agent) sees every word the plan holds.
 */
export function planFileText(plan: Plan): string {
  // Outside strings, JSON text is ASCII, line feeds and spaces, which visibleControls leaves: every escape it writes is in a string.
  return `${visibleControls(JSON.stringify(plan, null, 2))}\n`;
}

/** What `readPlanFile` made of a file: a plan that can run (with what was ignored), or every problem. */
export type PlanFileReading = { ok: true; plan: Plan; warnings: string[] } | { ok: false; problems: string[] };

/**
 * Reads a plan file's text as "Run plan file" and "Review plan file" do: `parsePlan` (the
 * same loose reading as `task-planner run`), then `validatePlan` against `options.tools`.
 * Every parse error, or every validation error, is a problem; validation warnings join the
 * parser's warnings.
 */
export function readPlanFile(text: string, options: ValidatePlanOptions = {}): PlanFileReading {
  const parsed = parsePlanFileText(text);
  if (!parsed.ok) return { ok: false, problems: parsed.errors };
  const diagnostics = validatePlan(parsed.plan, options);
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  if (errors.length > 0) return { ok: false, problems: errors.map((diagnostic) => diagnostic.message) };
  return { ok: true, plan: parsed.plan, warnings: [...parsed.warnings, ...diagnostics.map((diagnostic) => diagnostic.message)] };
}

/**
 * `parsePlan` of a plan file's text, said of a file: the parser reads a model's reply and repairs its JSON, so a file
 * read only after repair (a missing comma or bracket) gets a warning saying so first, and one past repair the problem
 * "It is not valid JSON (…)" in place of the reply's wording. A newcomer's Run plan file ran a file missing a comma, with
 * nothing said of it.
 */
export function parsePlanFileText(text: string): ReturnType<typeof parsePlan> {
  const parsed = parsePlan(text);
  const invalid = strictJsonProblem(text);
  if (invalid === undefined) return parsed;
  if (!parsed.ok) return { ok: false, errors: [`It is not valid JSON (${invalid}), even after repairing what a missing comma or bracket would.`] };
  const repaired = `The file is not valid JSON as written (${invalid}); it was read repaired: fix it, so that other tools read it the same.`;
  return { ...parsed, warnings: [repaired, ...parsed.warnings] };
}

/** Why `text` is not strict JSON, or `undefined` when it is. */
function strictJsonProblem(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return errorMessage(error);
  }
}

/**
 * One message naming the file `name` and its problems: the first `maxProblemsListed`, each
 * cut to 300 characters with direction controls shown escaped, then "and N more".
 */
export function planFileProblemsMessage(name: string, problems: readonly string[]): string {
  const listed = problems.slice(0, maxProblemsListed).map((problem) => visibleDirection(capText(problem, 300)));
  const more = problems.length - listed.length;
  const count = problems.length === 1 ? 'a problem' : `${problems.length} problems`;
  return `${visibleDirection(name)} is not a plan that can run (${count}): ${listed.join(' ')}${more > 0 ? ` And ${more} more.` : ''}`;
}
