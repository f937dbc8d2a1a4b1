import type { BudgetTracker } from '../llm/budget';
import type { CommandRunner } from '../commandPorts';
import type { RunStore } from '../runStorePorts';
import type { RunEnvironment } from './runEnvironment';
import type { RunPolicy } from './runPolicy';

/**
 * The environment a host (the editor, the command line) gives its runs: every port of
 * `RunEnvironment`, with a store (its runs can be listed and resumed), a budget tracker
 * over the user's limits and a command runner always.
 */
export interface HostEnvironment extends RunEnvironment {
  store: RunStore;
  budget: BudgetTracker;
  commandRunner: CommandRunner;
}

/** A host's whole environment and policy, as `runPlan`, `resumeRun` and `executeWithReplanning` take them. */
export type HostRunOptions = HostEnvironment & RunPolicy;

/**
 * The options of a host's runs: its environment and its policy, each built whole by the host
 * (`satisfies`), so a new port or setting is a compile error there until it says what it gives.
 */
export function hostRunOptions(environment: HostEnvironment, policy: RunPolicy): HostRunOptions {
  return { ...environment, ...policy };
}
