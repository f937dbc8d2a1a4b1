import * as vscode from 'vscode';
import {
  apiAnswered,
  apiRootCandidates,
  defaultHostedBaseUrl,
  describeConnection,
  describeListing,
  localServers,
  readTypedBaseUrl,
  type ConnectionTest,
  type LocalServerKind,
  type ModelChoice,
  type ModelListing,
} from '../core/llm/modelSetup';

/** One entry of a pick list. */
export interface SetupItem<T> {
  label: string;
  description?: string;
  detail?: string;
  value: T;
}

/** The questions "Set up a model" asks: a QuickPick and an input box in the editor, scripted in tests. */
export interface ModelSetupUi {
  /** `undefined` when dismissed. */
  pick<T>(title: string, placeholder: string, items: readonly SetupItem<T>[]): Promise<T | undefined>;
  /** `undefined` when dismissed; `validate` returns the problem with a value, or `undefined`. */
  input(
    title: string,
    options: { prompt: string; value?: string; password?: boolean; validate?: (value: string) => string | undefined },
  ): Promise<string | undefined>;
}

/** What the flow reads and does besides asking (the editor wires VS Code's APIs). */
export interface ModelSetupDeps {
  ui: ModelSetupUi;
  /** The settings now, for defaults. */
  current: { baseUrl: string; model: string };
  /** Whether an API key is stored for `baseUrl`'s origin (a key entered for another address does not count). */
  hasKey(baseUrl: string): Promise<boolean>;
  /** The chat models VS Code offers now (Copilot or any provider extension). */
  vscodeModels(): Promise<{ family: string; name: string }[]>;
  /** The models the server at `baseUrl` lists, asked with `apiKey` (just typed), else with the key stored for that address if any. */
  listModels(baseUrl: string, apiKey: string | undefined): Promise<ModelListing>;
  /** Writes the settings (user scope) and stores `apiKey` when given. */
  save(choice: ModelChoice, apiKey: string | undefined): Promise<void>;
  /** One tiny request to the chosen model. */
  test(choice: ModelChoice): Promise<ConnectionTest>;
  /** Whether a prompt fits the chosen model's context, in words (`undefined`: nothing to say, as for no model). */
  contextFit?(choice: ModelChoice): Promise<string | undefined>;
}

/** What the flow did: the choice saved and the connection test's outcome in words. */
export interface ModelSetupOutcome {
  choice: ModelChoice;
  ok: boolean;
  message: string;
}

type Way = 'vscode' | 'local' | 'hosted' | 'heuristic';

/**
 * "Task Planner: Set up a model": asks which of the three ways (a VS Code chat model, a
 * local OpenAI-compatible server, a hosted one) or no model, then the address, key and
 * model as that way needs (a server's models are listed when it answers), saves the
 * settings, tests the connection with one tiny request and says what happened, and whether
 * a prompt with the offered tools fits the model's context (`contextFit`).
 * `undefined` when the user dismissed a question (nothing saved).
 */
export async function runModelSetup(deps: ModelSetupDeps): Promise<ModelSetupOutcome | undefined> {
  const vscodeModels = await deps.vscodeModels();
  const vscodeWay: SetupItem<Way> = {
      label: vscode.l10n.t('A VS Code chat model'),
      description:
        vscodeModels.length > 0
          ? vscode.l10n.t(
              '{0} available: {1}',
              vscodeModels.length,
              vscodeModels
                .map((model) => model.name)
                .slice(0, 3)
                .join(', '),
            )
          : vscode.l10n.t('none installed yet'),
      detail: vscode.l10n.t('GitHub Copilot or any extension that provides chat models; picked automatically when present.'),
      value: 'vscode',
  };
  // The first item is the one Enter takes: with no VS Code chat model installed, a newcomer found that choice preselected.
  const servers: SetupItem<Way>[] = [
    {
      label: vscode.l10n.t('A local server'),
      description: vscode.l10n.t('Ollama, LM Studio, llama.cpp, vLLM'),
      detail: vscode.l10n.t('An OpenAI-compatible server on this machine: only its address, no key.'),
      value: 'local',
    },
    {
      label: vscode.l10n.t('A hosted service'),
      description: vscode.l10n.t('OpenAI, OpenRouter, Azure, …'),
      detail: vscode.l10n.t("An OpenAI-compatible API: its address and your key (kept in VS Code's secret storage)."),
      value: 'hosted',
    },
  ];
  const noModel: SetupItem<Way> = {
    label: vscode.l10n.t('No model'),
    description: vscode.l10n.t('the heuristic planner'),
    detail: vscode.l10n.t('Plans from the text of the request; steps that need a model are yours to do.'),
    value: 'heuristic',
  };
  const way = await deps.ui.pick<Way>(
    vscode.l10n.t('Task Planner: Set up a model (1/3)'),
    vscode.l10n.t('Which model should plan and run the steps?'),
    vscodeModels.length > 0 ? [vscodeWay, ...servers, noModel] : [...servers, vscodeWay, noModel],
  );
  if (way === undefined) return undefined;
  const choice = await chooseDetails(deps, way, vscodeModels);
  if (!choice) return undefined;
  await deps.save(choice.choice, choice.apiKey);
  const test: ConnectionTest = choice.choice.provider === 'heuristic' ? { ok: true, model: 'heuristic' } : await deps.test(choice.choice);
  // Only a model that answered is worth measuring against: after a failure, the one thing to say is how to reach it.
  const fit = test.ok ? await deps.contextFit?.(choice.choice) : undefined;
  const message = [choice.assumed, describeConnection(choice.choice, test), fit].filter((part) => part !== undefined).join(' ');
  return { choice: choice.choice, ok: test.ok, message };
}

/** What the questions chose: the model, the key typed, and what was assumed about the address typed (in words). */
interface Chosen {
  choice: ModelChoice;
  apiKey?: string;
  assumed?: string;
}

async function chooseDetails(
  deps: ModelSetupDeps,
  way: Way,
  vscodeModels: { family: string; name: string }[],
): Promise<Chosen | undefined> {
  switch (way) {
    case 'heuristic':
      return { choice: { provider: 'heuristic' } };
    case 'vscode':
      return chooseVscodeModel(deps, vscodeModels);
    case 'local':
      return chooseLocalServer(deps);
    case 'hosted':
      return chooseHosted(deps);
  }
}

async function chooseVscodeModel(deps: ModelSetupDeps, models: { family: string; name: string }[]): Promise<{ choice: ModelChoice } | undefined> {
  if (models.length === 0) {
    // Saved anyway: "auto" picks the model as soon as an extension offers one; the test says what is missing.
    return { choice: { provider: 'vscode', family: '' } };
  }
  const family = await deps.ui.pick(vscode.l10n.t('Task Planner: Set up a model (2/3)'), vscode.l10n.t('Which VS Code chat model?'), [
    { label: vscode.l10n.t('The first one available'), description: models[0]?.name ?? '', value: '' },
    ...models.map((model) => ({ label: model.name, description: model.family, value: model.family })),
  ]);
  return family === undefined ? undefined : { choice: { provider: 'vscode', family } };
}

async function chooseLocalServer(deps: ModelSetupDeps): Promise<Chosen | undefined> {
  const kinds = Object.keys(localServers) as LocalServerKind[];
  const listings = await Promise.all(kinds.map((kind) => deps.listModels(localServers[kind].baseUrl, undefined)));
  const server = await deps.ui.pick<LocalServerKind | 'other'>(vscode.l10n.t('Task Planner: Set up a model (2/3)'), vscode.l10n.t('Which local server?'), [
    ...kinds.map((kind, index) => {
      const listing = listings[index];
      return {
        label: localServers[kind].name,
        description: localServers[kind].baseUrl,
        detail: !listing?.ok
          ? vscode.l10n.t('Not answering now.')
          : listing.models.length === 1
            ? vscode.l10n.t('Answering: 1 model.')
            : vscode.l10n.t('Answering: {0} models.', listing.models.length),
        value: kind,
      };
    }),
    { label: vscode.l10n.t('Another address…'), description: vscode.l10n.t('any OpenAI-compatible server on this machine or your network'), value: 'other' },
  ]);
  if (server === undefined) return undefined;
  const known = server === 'other' ? undefined : server;
  // A server picked while it answers at its usual address is there: asking for that address again only confused a newcomer.
  const answering = known !== undefined && listings[kinds.indexOf(known)]?.ok === true;
  const address = answering ? { baseUrl: localServers[known].baseUrl } : await askBaseUrl(deps, known ? localServers[known].baseUrl : 'http://127.0.0.1:8080/v1', true);
  if (address === undefined) return undefined;
  const { baseUrl, assumed } = address;
  const model = await chooseModel(deps, baseUrl, undefined, known);
  if (model === undefined) return undefined;
  return { choice: { provider: 'openai', baseUrl, model, ...(known ? { server: known } : {}) }, ...(assumed ? { assumed } : {}) };
}

async function chooseHosted(deps: ModelSetupDeps): Promise<Chosen | undefined> {
  const local = Object.values(localServers).some((server) => server.baseUrl === deps.current.baseUrl);
  const address = await askBaseUrl(deps, local ? defaultHostedBaseUrl : deps.current.baseUrl || defaultHostedBaseUrl, false);
  if (address === undefined) return undefined;
  const { baseUrl, assumed } = address;
  const stored = await deps.hasKey(baseUrl);
  const typed = await deps.ui.input(vscode.l10n.t('Task Planner: Set up a model: API key'), {
    // Named: the key goes to this address alone, and only what the user typed or accepted above.
    prompt: stored
      ? vscode.l10n.t("The API key of {0} (leave empty to keep the stored one). Sent only there; kept in VS Code's secret storage, never in settings.", baseUrl)
      : vscode.l10n.t("The API key of {0}. Sent only there; kept in VS Code's secret storage, never in settings.", baseUrl),
    password: true,
    validate: (value) => (!stored && value.trim() === '' ? vscode.l10n.t('Enter the key, or press Escape to cancel.') : undefined),
  });
  if (typed === undefined) return undefined;
  const apiKey = typed.trim() === '' ? undefined : typed.trim();
  const model = await chooseModel(deps, baseUrl, apiKey, undefined);
  return model === undefined ? undefined : { choice: { provider: 'openai', baseUrl, model }, ...(apiKey ? { apiKey } : {}), ...(assumed ? { assumed } : {}) };
}

/**
 * The server's API root: asked (an address without a scheme is taken, with `http://` for a
 * `local` server or this machine, else `https://`), then, for an address without a path,
 * probed at `/v1` and as typed (the first where a server's API answers; `/v1` when none
 * does). `assumed` says in words what was added to what was typed, when anything was.
 */
async function askBaseUrl(deps: ModelSetupDeps, value: string, local: boolean): Promise<{ baseUrl: string; assumed?: string } | undefined> {
  const typed = await deps.ui.input(vscode.l10n.t('Task Planner: Set up a model: address'), {
    prompt: vscode.l10n.t("The server's OpenAI-compatible API root (usually ending in /v1), such as {0}.", local ? 'localhost:8080/v1' : defaultHostedBaseUrl),
    value,
    validate: (text) => {
      const read = readTypedBaseUrl(text, local);
      if (read.ok) return undefined;
      return read.problem === 'not_http'
        ? vscode.l10n.t('Enter an http:// or https:// address.')
        : vscode.l10n.t('Enter an address such as {0}.', 'http://127.0.0.1:11434/v1');
    },
  });
  if (typed === undefined) return undefined;
  const read = readTypedBaseUrl(typed, local);
  if (!read.ok) return undefined;
  const candidates = apiRootCandidates(read.url);
  let baseUrl = candidates[0] ?? read.url;
  if (candidates.length > 1) {
    for (const candidate of candidates) {
      if (apiAnswered(await deps.listModels(candidate, undefined))) {
        baseUrl = candidate;
        break;
      }
    }
  }
  const added = [...(read.addedScheme ? [read.addedScheme] : []), ...(baseUrl.endsWith('/v1') && !read.url.endsWith('/v1') ? ['/v1'] : [])];
  if (added.length === 0) return { baseUrl };
  return { baseUrl, assumed: vscode.l10n.t('Read "{0}" as {1} (added {2}).', typed.trim(), baseUrl, added.join(', ')) };
}

/** The model to use: picked from the server's list when it answers, else typed (the reason shown). */
async function chooseModel(
  deps: ModelSetupDeps,
  baseUrl: string,
  apiKey: string | undefined,
  server: LocalServerKind | undefined,
): Promise<string | undefined> {
  const listing = await deps.listModels(baseUrl, apiKey);
  if (listing.ok && listing.models.length > 0) {
    return deps.ui.pick(
      vscode.l10n.t('Task Planner: Set up a model (3/3)'),
      listing.models.length === 1
        ? vscode.l10n.t('The model at {0}:', baseUrl)
        : vscode.l10n.t('Which of the {0} models at {1}?', listing.models.length, baseUrl),
      listing.models.map((id) => ({ label: id, value: id })),
    );
  }
  const why = listing.ok ? vscode.l10n.t('The server at {0} lists no models.', baseUrl) : describeListing(baseUrl, listing, server);
  const typed = await deps.ui.input(vscode.l10n.t('Task Planner: Set up a model: model name'), {
    prompt: vscode.l10n.t("{0} Type the model's name to use it anyway.", why),
    value: deps.current.model,
    validate: (value) => (value.trim() === '' ? vscode.l10n.t('Enter the model name, or press Escape to cancel.') : undefined),
  });
  return typed?.trim();
}
