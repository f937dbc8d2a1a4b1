import assert from 'node:assert/strict';
import { failurePolicies, requestKinds, runStatuses, stepKinds, stepStatuses } from '../../src/shared/vocabulary';
import { readSources } from './importGraph';
import { literalLists } from './literalLists';

const vocabularyFile = 'src/shared/vocabulary.ts';
const vocabulary: Record<string, readonly string[]> = { stepKinds, failurePolicies, stepStatuses, runStatuses, requestKinds };

/** "file:line: stepKinds 'agent', 'manual'" for every literal list of two or more names that are all names of one vocabulary list. */
function redeclarations(files: readonly { path: string; text: string }[]): string[] {
  return files.flatMap((file) =>
    literalLists(file.path, file.text).flatMap((list) => {
      const found = Object.entries(vocabulary).flatMap(([name, names]) => {
        const members = [...new Set(list.values)];
        return members.length >= 2 && members.every((member) => names.includes(member)) ? [`${name} ${members.map((member) => `'${member}'`).join(', ')}`] : [];
      });
      return found.length > 0 ? [`${file.path}:${list.line}: ${found.join('; ')}`] : [];
    }),
  );
}

describe('architecture: one vocabulary (docs/architecture.md §8)', () => {
  it('declares step kinds, failure policies, statuses and request kinds only in src/shared/vocabulary.ts', () => {
    const sources = readSources('src', 'webview').filter((file) => file.path !== vocabularyFile);
    assert.deepEqual(redeclarations(sources), [], 'derive these from src/shared/vocabulary.ts (z.enum(list), (typeof list)[number], an exhaustive Record<Kind, …>) instead of listing the names again');
  });

  it('finds the names in array literals, unions of literal types and zod enums', () => {
    const file = (text: string) => [{ path: 'src/x.ts', text }];
    assert.deepEqual(redeclarations(file("const kinds = ['tool', 'agent'] as const;")), ["src/x.ts:1: stepKinds 'tool', 'agent'"]);
    assert.deepEqual(redeclarations(file("type P =\n  | 'stop'\n  | 'retry';")), ["src/x.ts:2: failurePolicies 'stop', 'retry'"]);
    assert.deepEqual(redeclarations(file("const ended = new Set<StepStatus>(['completed', 'skipped']);")), ["src/x.ts:1: stepStatuses 'completed', 'skipped'"]);
    assert.deepEqual(redeclarations(file("const p = z.enum(['retry', 'replan']);")), ["src/x.ts:1: failurePolicies 'retry', 'replan'"]);
    assert.deepEqual(redeclarations(file("type Both = 'clarification' | 'manual';")), ["src/x.ts:1: stepKinds 'clarification', 'manual'; requestKinds 'clarification', 'manual'"]);
  });

  it('leaves single names, lists of another vocabulary that share some names, and text alone', () => {
    const file = (text: string) => [{ path: 'src/x.ts', text }];
    assert.deepEqual(redeclarations(file("if (step.kind === 'tool') run(); const fields = ['tool', 'agent', 'input'];")), []);
    assert.deepEqual(redeclarations(file("type Disposition = 'retry' | 'skip' | 'fail'; const mixed = ['tool', kind];")), []);
    assert.deepEqual(redeclarations(file("const text = `kinds: 'tool' | 'agent'`;")), []);
  });
});
