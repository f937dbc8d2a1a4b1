import type { LlmChatRequest, LlmChatResponse } from './llmTypes';

/** The jobs a run gives a model, each of which may use its own (docs/architecture.md §5). */
export const modelRoleNames = ['planner', 'agent', 'reviewer', 'compaction'] as const;
export type ModelRole = (typeof modelRoleNames)[number];

/**
 * The model name of each role; an absent role uses the client's own model. Names only, never
 * an address: every role goes to the one endpoint the user configured, with the user's key,
 * so choosing a role's model cannot send the key to another server.
 */
export type ModelRoles = Partial<Record<ModelRole, string>>;

/** The longest model name accepted (OpenRouter-style names are well under it). */
export const maxModelNameLength = 200;

/**
 * Why `name` cannot be a model name, or `undefined` when it can: empty, too long, a URL
 * (`://`), or holding spaces or control characters. A name is sent as the request's `model`
 * field only; the check keeps an address-looking value from ever passing for one.
 */
export function modelNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'a model name cannot be empty';
  if (name.length > maxModelNameLength) return `a model name has at most ${maxModelNameLength} characters`;
  if (name.includes('://')) return 'a model name is a name, not an address; the address is the base URL setting';
  if (/[\s\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/u.test(name)) return 'a model name has no spaces or control characters';
  return undefined;
}

/**
 * The roles with a usable name each: blank entries are dropped, names trimmed, and a name
 * `modelNameProblem` refuses is reported through `problem` and dropped (its role uses the
 * default model).
 */
export function cleanModelRoles(
  raw: Readonly<Partial<Record<ModelRole, string | undefined>>>,
  problem?: (role: ModelRole, message: string) => void,
): ModelRoles {
  const roles: ModelRoles = {};
  for (const role of modelRoleNames) {
    const value = raw[role]?.trim();
    if (value === undefined || value === '') continue;
    const refused = modelNameProblem(value);
    if (refused === undefined) roles[role] = value;
    else problem?.(role, refused);
  }
  return roles;
}

/** The distinct model names a run may use: the default model, then each role's, in role order. */
export function configuredModels(defaultModel: string, roles: ModelRoles): string[] {
  return [...new Set([defaultModel, ...modelRoleNames.flatMap((role) => (roles[role] === undefined ? [] : [roles[role]]))])];
}

/** The `LlmClient` port's shape, named here so the plan schema's import of this file closes no cycle through the ports. */
export interface ModelClient {
  readonly model: string;
  chat(request: LlmChatRequest): Promise<LlmChatResponse>;
}

/**
 * `client` with its requests sent to `model` (the request's `model` field), or `client`
 * itself when `model` is absent. A request that already names a model keeps it, so the
 * outermost wrapper, the most specific choice, wins: a step's compaction wrapped around
 * the step's agent model asks the compaction model.
 */
export function withModel<Client extends ModelClient>(client: Client, model: string | undefined): Client | ModelClient {
  if (model === undefined || model === client.model) return client;
  return {
    model,
    chat: (request) => client.chat(request.model === undefined ? { ...request, model } : request),
  };
}
