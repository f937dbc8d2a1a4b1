import { css } from 'lit';

/**
 * Styles shared by the panel's components, all from VS Code's theme variables so the panel
 * follows light, dark and high-contrast themes (`--vscode-contrastBorder` and
 * `--vscode-contrastActiveBorder` are only set in high-contrast themes). Text keeps the
 * foreground colours (4.5:1 in every built-in theme); the status colours, which do not
 * (yellow on white is 3.1:1), mark errors and warnings with a bar beside the text instead.
 */
export const panelStyles = css`
  :host { display: block; color: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
  h1, h2, h3 { font-weight: 600; margin: 0.6em 0 0.4em; }
  h1 { font-size: 1.35em; }
  h1.objective { overflow-wrap: anywhere; }
  .full-request { margin: 0 0 0.6em; }
  .full-request-text { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 40vh; overflow-y: auto; margin-top: 4px; }
  h2 { font-size: 1.1em; }
  h3 { font-size: 1em; }
  section { margin: 0 0 16px; }
  code, pre, .mono { font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); }
  pre { margin: 4px 0; padding: 6px 8px; background: var(--vscode-textCodeBlock-background); border: 1px solid var(--vscode-contrastBorder, transparent); border-radius: 3px; white-space: pre-wrap; word-break: break-word; max-height: 240px; overflow: auto; }
  .muted { color: var(--vscode-descriptionForeground); }
  .row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
  .spacer { flex: 1; }
  /* A title from a model or a plan file (E8 of issue 27): wraps anywhere, at most three lines; the whole title is its tooltip. */
  .bounded-title { min-width: 0; max-width: 100%; overflow-wrap: anywhere; display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 3; line-clamp: 3; overflow: hidden; }
  span.bounded-title, td .bounded-title { display: -webkit-inline-box; }
  .card { border: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent)); border-radius: 4px; padding: 8px 10px; margin: 6px 0; background: var(--vscode-sideBar-background, transparent); }
  .card:focus-within { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
  .card.skipped { opacity: 0.65; }
  .card.changed { border-left: 3px solid var(--vscode-editorGutter-modifiedBackground, var(--vscode-charts-blue)); }
  .card.added { border-left: 3px solid var(--vscode-editorGutter-addedBackground, var(--vscode-charts-green)); }
  .tag { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 0.85em; line-height: 1.6; border: 1px solid var(--vscode-contrastBorder, transparent); background: var(--vscode-badge-background); color: var(--vscode-badge-foreground); }
  .icon-button { font: inherit; color: var(--vscode-foreground); background: transparent; border: 1px solid transparent; border-radius: 3px; padding: 1px 6px; cursor: pointer; }
  .icon-button:hover:not(:disabled) { background: var(--vscode-toolbar-hoverBackground); }
  .icon-button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 0; }
  .icon-button:disabled { color: var(--vscode-disabledForeground); cursor: default; }
  .link-button { font: inherit; color: var(--vscode-textLink-foreground); background: transparent; border: none; padding: 0; cursor: pointer; text-decoration: underline; }
  .link-button:hover { color: var(--vscode-textLink-activeForeground); }
  .link-button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
  .link { font: inherit; color: var(--vscode-textLink-foreground); background: none; border: none; padding: 0; cursor: pointer; text-decoration: underline; }
  .link:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
  .error, .warning { color: var(--vscode-foreground); border-left: 3px solid var(--marker); padding-left: 6px; }
  .error { --marker: var(--vscode-editorError-foreground, var(--vscode-errorForeground)); }
  .warning { --marker: var(--vscode-editorWarning-foreground); }
  /* text with lines of its own (a command's output): shown with them, wrapped inside the panel */
  .keep-lines { white-space: pre-wrap; overflow-wrap: anywhere; }
  /* A step's input keeps its lines (.keep-lines: an imported task's origin read as one run-on line; a newcomer); a tall one scrolls. */
  .step-input { max-height: 40vh; overflow-y: auto; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0; }
  [tabindex="-1"]:focus { outline: none; }
  [tabindex="-1"]:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 6px 0 0; }
  dt { color: var(--vscode-descriptionForeground); }
  dd { margin: 0; min-width: 0; overflow-wrap: break-word; }
  .status { display: inline-flex; align-items: center; gap: 4px; }
  .status-dot { width: 9px; height: 9px; border-radius: 50%; display: inline-block; border: 1px solid var(--vscode-contrastBorder, transparent); }
  .s-completed { --status: var(--vscode-charts-green, #388a34); }
  .s-failed { --status: var(--vscode-charts-red, #e51400); }
  .s-partial { --status: var(--vscode-charts-orange, #d18616); }
  .s-running { --status: var(--vscode-charts-blue, #1a85ff); }
  .s-awaiting_approval, .s-awaiting_clarification, .s-awaiting_review, .s-awaiting_user, .s-awaiting_budget { --status: var(--vscode-charts-yellow, #bf8803); }
  .s-skipped { --status: var(--vscode-disabledForeground, #888); }
  .s-pending, .s-blocked, .s-ready { --status: var(--vscode-charts-purple, #8c6bc8); }
  .status-dot { background: var(--status); }
`;
