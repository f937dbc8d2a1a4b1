/** The values of the `taskPlanner.llm.provider` setting. */
export const providerSettings = ['auto', 'vscode', 'openai', 'heuristic'] as const;

/** The `taskPlanner.llm.provider` setting. */
export type ProviderSetting = (typeof providerSettings)[number];

/** Which planner/agent backend a run uses. */
export type ProviderChoice = 'vscode' | 'openai' | 'heuristic';

/** What the choice depends on; `apiKey` is only tested for presence, never stored or shown. */
export interface ProviderInputs {
  setting: ProviderSetting;
  /** Whether VS Code offers at least one chat model (`vscode.lm.selectChatModels`). */
  vscodeLmAvailable: boolean;
  apiKey?: string;
  baseURL?: string;
}

/**
 * the provider rule of docs/architecture.md §5. An explicit setting wins (the caller reports it when that
 * provider then turns out unusable). `auto`: VS Code LM when a chat model is available,
 * else OpenAI-compatible when an API key is set or the base URL is local (loopback or
 * `localhost`, which need no key: Ollama, LM Studio, vLLM, llama.cpp), else heuristic.
 */
export function selectProvider(inputs: ProviderInputs): ProviderChoice {
  if (inputs.setting !== 'auto') return inputs.setting;
  if (inputs.vscodeLmAvailable) return 'vscode';
  if ((inputs.apiKey ?? '').trim() !== '') return 'openai';
  if (inputs.baseURL !== undefined && isLocalBaseUrl(inputs.baseURL)) return 'openai';
  return 'heuristic';
}

/** Whether `baseURL` points at this machine: `localhost` (and `*.localhost`), 127.0.0.0/8, `::1` or `0.0.0.0`. */
export function isLocalBaseUrl(baseURL: string): boolean {
  let host: string;
  try {
    host = new URL(baseURL.trim()).hostname.toLowerCase();
  } catch {
    return false;
  }
  host = host.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '::1' || host === '0.0.0.0';
}
