// The thread of `createPredicateThreads`: evaluates the predicates it is sent, one at a time, and answers each.
// Started by src/node/predicateThreads.ts, never imported.
import { parentPort } from 'node:worker_threads';
import { evaluatePredicate, type PredicateBindings, type PredicateOptions } from '../core/predicate/evaluatePredicate';
import type { PredicateAnswer } from './predicateThreads';

interface PredicateRequest {
  id: number;
  expr: string;
  bindings: PredicateBindings;
  opts: PredicateOptions;
}

const port = parentPort;
if (port !== null) {
  // The sandbox is loaded before the thread says it is ready, so a predicate's time starts when it is sent.
  void evaluatePredicate('true', {}).then(() => port.postMessage({ ready: true } satisfies PredicateAnswer));
  port.on('message', (request: PredicateRequest) => {
    void evaluatePredicate(request.expr, request.bindings, request.opts).then((outcome) =>
      port.postMessage({ id: request.id, outcome } satisfies PredicateAnswer),
    );
  });
}
