import assert from 'node:assert/strict';
import { normalizeAgents } from '../../../../src/core/plan/normalizeAgents';

function read(value: unknown): { agents: ReturnType<typeof normalizeAgents>; warnings: string[] } {
  const warnings: string[] = [];
  return { agents: normalizeAgents(value, warnings), warnings };
}

describe('normalizeAgents', () => {
  it('reads no agents, silently, when there are none', () => {
    assert.deepEqual(read(undefined), { agents: {}, warnings: [] });
    assert.deepEqual(read(null), { agents: {}, warnings: [] });
  });

  it('ignores agents that are not a mapping, saying so', () => {
    for (const value of [['writer'], 'writer', 3]) {
      assert.deepEqual(read(value), { agents: {}, warnings: ['Ignored "agents": expected an object mapping agent names to agents.'] });
    }
  });

  it('takes a string as the prompt of an agent without tools', () => {
    assert.deepEqual(read({ writer: 'You write docs.' }).agents, { writer: { prompt: 'You write docs.', tools: [] } });
  });

  it('takes the prompt from prompt > description > role, and an empty prompt when there is none', () => {
    assert.deepEqual(read({ a: { prompt: 'P', description: 'D', role: 'R' }, b: { description: 'D', role: 'R' }, c: { role: 'R' }, d: {} }).agents, {
      a: { prompt: 'P', tools: [] },
      b: { prompt: 'D', tools: [] },
      c: { prompt: 'R', tools: [] },
      d: { prompt: '', tools: [] },
    });
  });

  it('takes tools from tools > capabilities, as a list or a comma-separated string, dropping blanks and non-strings', () => {
    const { agents, warnings } = read({
      list: { prompt: 'p', tools: ['read_file', ' ', 3, null, 'write_file'], capabilities: ['run_command'] },
      text: { prompt: 'p', capabilities: ' read_file, ,search_text ,' },
      odd: { prompt: 'p', tools: { read_file: true } },
    });
    assert.deepEqual(agents, {
      list: { prompt: 'p', tools: ['read_file', 'write_file'] },
      text: { prompt: 'p', tools: ['read_file', 'search_text'] },
      odd: { prompt: 'p', tools: [] },
    });
    assert.deepEqual(warnings, []);
  });

  it('drops an agent that is neither a prompt nor an object, naming it', () => {
    const { agents, warnings } = read({ good: 'p', bad: 7, list: ['x'] });
    assert.deepEqual(agents, { good: { prompt: 'p', tools: [] } });
    assert.deepEqual(warnings, ['Ignored agent "bad": expected a prompt string or an object.', 'Ignored agent "list": expected a prompt string or an object.']);
  });
});
