import { valueText } from '../text/valueText';
import type { Tool } from './tool';

/**
 * The one text form of a tool's output, wherever a text of it is needed: the answer an agent
 * gets for its tool call and a `"$<id>"` reference given to a string parameter. The tool's
 * own `resultText` when it has one (an MCP tool's text, `fetch_url`'s content), else the
 * output's compact JSON (`valueText`).
 */
export function toolResultText(tool: Pick<Tool, 'resultText'> | undefined, output: unknown): string {
  return tool?.resultText === undefined ? valueText(output) : tool.resultText(output);
}
