// The settings that make the scripted OpenAI-compatible server the workspace's model, for the suites that plan with one.
import * as vscode from 'vscode';
import type { FakeOpenAiServer } from '../fakes/fakeOpenAiServer';

const settings = () => vscode.workspace.getConfiguration('taskPlanner');

/** Starts `server` and makes it the workspace's model (provider `openai` at its address). */
export async function useFakeModel(server: FakeOpenAiServer): Promise<void> {
  await server.start();
  await settings().update('llm.provider', 'openai', vscode.ConfigurationTarget.Workspace);
  await settings().update('llm.baseUrl', server.baseURL, vscode.ConfigurationTarget.Workspace);
}

/** Takes the workspace's model settings back to none (the server is the suite's to close). */
export async function forgetFakeModel(): Promise<void> {
  await settings().update('llm.provider', undefined, vscode.ConfigurationTarget.Workspace);
  await settings().update('llm.baseUrl', undefined, vscode.ConfigurationTarget.Workspace);
}
