/** A step's `when` condition as the review shows it: in words where it has a shape the planners write, else its code (`code`). */
export interface ConditionText {
  text: string;
  code: boolean;
}

// What the planner writes for a fix of what a command printed (`fixNeeded`): it runs when the command did not pass.
const commandFailed = /^depends\[("(?:[^"\\]|\\.)*")\]\.exitCode !== 0 \|\| depends\[\1\]\.timedOut === true \|\| "`((?:[^"\\]|\\.)*)` passed, nothing to fix"$/;

/**
 * `when` in words where the planner wrote a known shape ("`npm test` (step S001) did not pass"; a newcomer read
 * `depends["S001"].exitCode !== 0 || …`), else the predicate itself, shown as code.
 */
export function conditionText(when: string): ConditionText {
  const failed = commandFailed.exec(when);
  if (failed === null) return { text: when, code: true };
  const [id, command] = [JSON.parse(failed[1]!) as string, JSON.parse(`"${failed[2]!}"`) as string];
  return { text: `\`${command}\` (step ${id}) did not pass`, code: false };
}
