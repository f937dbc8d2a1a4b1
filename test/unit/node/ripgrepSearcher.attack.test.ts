import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRipgrepSearcher } from '../../../src/node/ripgrepSearcher';
import { neverAborted } from '../../fakes/toolContext';

// Attack on docs/security.md §3, "No secret reaches a command, an MCP server or a journal through the environment", for the
// one program the investigation tools start themselves: search_text's ripgrep. In the editor the extension host's
// environment is the one VS Code was started with (a shell that exported OPENAI_API_KEY, a CI job's tokens); ripgrep was
// started with all of it, unlike every command and MCP server.

describe('attack: the environment ripgrep is started with', () => {
  const secrets = {
    OPENAI_API_KEY: 'sk-ripgrep-ATTACK-0123456789abcdef',
    TASK_PLANNER_API_KEY: 'tp-ripgrep-ATTACK-0123456789abcdef',
    OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer ripgrep-ATTACK-otlp-0123456789',
  };
  let base: string;
  let saved: Record<string, string | undefined>;
  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'rg-env-'));
    saved = Object.fromEntries(Object.keys(secrets).map((name) => [name, process.env[name]]));
    Object.assign(process.env, secrets, { TP_RIPGREP_MARKER: 'kept' });
  });
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    delete process.env['TP_RIPGREP_MARKER'];
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('attack: a ripgrep that prints its environment sees none of the keys in the process\'s own', async function () {
    if (process.platform === 'win32') this.skip();
    const root = path.join(base, 'ws');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'a.txt'), 'NEEDLE\n');
    const seen = path.join(base, 'seen-environment');
    // Stands for any program search_text starts: it keeps what it was given, then finds nothing.
    const rg = path.join(base, 'rg');
    fs.writeFileSync(rg, `#!/bin/sh\nenv >> '${seen}'\nexit 1\n`, { mode: 0o755 });
    await createRipgrepSearcher(rg, root).narrow({ pattern: 'NEEDLE', regex: false, caseSensitive: true }, Promise.resolve([]), neverAborted);
    const environment = fs.readFileSync(seen, 'utf8');
    assert.match(environment, /TP_RIPGREP_MARKER=kept/, 'ripgrep ran with the rest of the environment');
    for (const [name, value] of Object.entries(secrets)) assert.ok(!environment.includes(value), `ripgrep was given ${name}`);
  });
});
