/** One step as the plan panel shows it. */
export interface StepView {
  id: string;
  title: string;
  kind: string;
  runner: string;
  dependsOn: string[];
}

/**
 * A complete, versioned picture of the plan for the webview. The host always sends whole
 * snapshots; the webview drops any snapshot whose `version` is not newer than the one shown.
 */
export interface PlanSnapshot {
  version: number;
  objective: string;
  steps: StepView[];
}
