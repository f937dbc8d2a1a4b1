import { readFileSync } from 'node:fs';
import { recognizeToolAction } from '../src/core/planner/recognizeToolAction';
for (const line of readFileSync('/tmp/mut1/rta-inputs.txt', 'utf8').split('\n').filter(Boolean)) {
  const r = recognizeToolAction(line);
  console.log(JSON.stringify(line), '=>', r === undefined ? 'undefined' : JSON.stringify(r.calls.map((c) => [c.tool, c.args])) + (r.inOrder ? ' inOrder' : ''));
}
