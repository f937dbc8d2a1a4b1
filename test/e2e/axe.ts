// axe-core inside the workbench's page or the plan panel's webview frame: the source is evaluated through the
// debugging protocol, which the webview's Content-Security-Policy (scripts with its nonce only) does not apply to.
import { readFileSync } from 'node:fs';
import type { Frame, Page } from 'playwright-core';

const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** One axe violation, reduced to what a report needs. */
export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** The violations of one scan: those of impact serious or critical, and the rest. */
export interface AxeReport {
  blocking: AxeFinding[];
  other: AxeFinding[];
}

/**
 * Runs axe-core (WCAG 2.0-2.2 A and AA rules and best practices) over `frame`'s document, or
 * only the elements matching `include`, with open shadow roots scanned.
 */
export async function runAxe(frame: Frame | Page, include?: string): Promise<AxeReport> {
  await frame.evaluate(`window.axe || (function () { ${axeSource}\n })()`);
  const findings = await frame.evaluate(async (selector) => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; impact?: string; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(selector ? { include: [selector] } : document, { resultTypes: ['violations'], runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } });
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact ?? 'minor', help: violation.help, targets: violation.nodes.map((node) => JSON.stringify(node.target)) }));
  }, include);
  return { blocking: findings.filter((finding) => finding.impact === 'serious' || finding.impact === 'critical'), other: findings.filter((finding) => finding.impact !== 'serious' && finding.impact !== 'critical') };
}

/** A one-line description of findings for assertion messages and the suite's output. */
export function describeFindings(findings: readonly AxeFinding[]): string {
  return findings.map((finding) => `${finding.id} (${finding.impact}, ${finding.targets.length}x: ${finding.targets.slice(0, 3).join(' ')}): ${finding.help}`).join('\n      ');
}
