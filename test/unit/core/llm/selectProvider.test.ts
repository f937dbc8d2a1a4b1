import assert from 'node:assert/strict';
import { isLocalBaseUrl, selectProvider } from '../../../../src/core/llm/selectProvider';

describe('selectProvider (the auto rule of docs/architecture.md §5)', () => {
  it('auto prefers VS Code LM when a chat model is available', () => {
    assert.equal(selectProvider({ setting: 'auto', vscodeLmAvailable: true, apiKey: 'sk-x' }), 'vscode');
  });

  it('auto uses OpenAI-compatible with a key, or with a local base URL and no key', () => {
    assert.equal(selectProvider({ setting: 'auto', vscodeLmAvailable: false, apiKey: 'sk-x', baseURL: 'https://api.openai.com/v1' }), 'openai');
    assert.equal(selectProvider({ setting: 'auto', vscodeLmAvailable: false, baseURL: 'http://127.0.0.1:11434/v1' }), 'openai');
    assert.equal(selectProvider({ setting: 'auto', vscodeLmAvailable: false, baseURL: 'http://localhost:1234/v1' }), 'openai');
  });

  it('auto falls back to the heuristic planner without a model, key or local URL', () => {
    assert.equal(selectProvider({ setting: 'auto', vscodeLmAvailable: false }), 'heuristic');
    assert.equal(selectProvider({ setting: 'auto', vscodeLmAvailable: false, apiKey: '   ', baseURL: 'https://api.openai.com/v1' }), 'heuristic');
  });

  it('respects an explicit setting', () => {
    assert.equal(selectProvider({ setting: 'heuristic', vscodeLmAvailable: true, apiKey: 'sk-x' }), 'heuristic');
    assert.equal(selectProvider({ setting: 'openai', vscodeLmAvailable: true }), 'openai');
    assert.equal(selectProvider({ setting: 'vscode', vscodeLmAvailable: false }), 'vscode');
  });

  it('recognises local base URLs only', () => {
    for (const url of ['http://localhost:8080', 'http://127.0.0.1/v1', 'http://127.1.2.3:1', 'http://[::1]:11434/v1', 'http://0.0.0.0:8000', 'http://llm.localhost/v1']) assert.ok(isLocalBaseUrl(url), url);
    for (const url of ['https://api.openai.com/v1', 'http://localhost.example.com', 'http://10.0.0.5:8000', 'not a url', 'http://127.0.0.1.evil.com']) assert.ok(!isLocalBaseUrl(url), url);
  });

  it('recognises every loopback address and an address with spaces around it', () => {
    for (const url of ['http://127.10.200.30:8000/v1', ' http://localhost:1234/v1 ']) assert.ok(isLocalBaseUrl(url), url);
  });
});
