import type { LlmMessage, LlmUsage } from '../llm/llmTypes';
import type { Tool } from '../tools/tool';
import { ChangeLog } from './changeLog';
import { LoopGuard } from './loopGuard';

/** An agent attempt's conversation and what it has used so far: its messages, calls, result bytes, changes and spending. */
export class AgentConversation {
  readonly guard = new LoopGuard();
  readonly usage: LlmUsage = { promptTokens: 0, completionTokens: 0 };
  /** `undefined` once any call's cost was unknown. */
  costUsd: number | undefined = 0;
  toolCalls = 0;
  resultBytes = 0;
  readonly changes = new ChangeLog();
  readonly toolsByName: ReadonlyMap<string, Tool>;

  constructor(
    readonly messages: LlmMessage[],
    tools: readonly Tool[],
  ) {
    this.toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
  }

  /** Adds one model call's usage and cost (`undefined`: unknown). */
  spent(usage: LlmUsage, costUsd: number | undefined): void {
    this.usage.promptTokens += usage.promptTokens;
    this.usage.completionTokens += usage.completionTokens;
    if (usage.cachedPromptTokens !== undefined) this.usage.cachedPromptTokens = (this.usage.cachedPromptTokens ?? 0) + usage.cachedPromptTokens;
    this.costUsd = this.costUsd === undefined || costUsd === undefined ? undefined : this.costUsd + costUsd;
  }
}
