// Ports only the editor has: diagnostics, the Problems view, language features and workspace trust.
// Every port of the core is in a `*Ports.ts` file at the root of src/core (docs/architecture.md, Ports).

/** One error-severity diagnostic the editor reports; `line` is 1-based, `path` workspace-relative. */
export interface EditorDiagnostic {
  path: string;
  line: number;
  message: string;
  /** Who reported it (`ts`, `eslint`…), when known. */
  source?: string;
}

/** Error diagnostics at one moment, as `Diagnostics.snapshot` took them; compare with `errorsSince`. */
export interface DiagnosticsSnapshot {
  errors: EditorDiagnostic[];
}

/**
 * The editor's error diagnostics (language servers, linters), for the `no_new_diagnostics`
 * check: a snapshot before a step's first attempt, then the errors that appeared since.
 * Only the editor has one; a run without it reports such checks as not available.
 */
export interface Diagnostics {
  /** Error diagnostics now in `paths` (workspace-relative), or in every file when `undefined`; read at the call, before it resolves. */
  snapshot(paths: readonly string[] | undefined, signal: AbortSignal): Promise<DiagnosticsSnapshot>;
  /**
   * Error diagnostics in `paths` that `snapshot` did not hold (see `newErrors`), once the
   * editor's diagnostics have settled after the step's writes (bounded by a few seconds).
   */
  errorsSince(snapshot: DiagnosticsSnapshot, paths: readonly string[], signal: AbortSignal): Promise<EditorDiagnostic[]>;
}

/** How serious an editor problem is, most serious first. */
export type ProblemSeverity = 'error' | 'warning' | 'information' | 'hint';

/** One problem the editor shows (any severity). Lines and columns are 1-based; `path` is workspace-relative. */
export interface EditorProblem {
  path: string;
  severity: ProblemSeverity;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
  /** Who reported it (`ts`, `eslint`…), when known. */
  source?: string;
  /** The reporter's code for it (`2322`), when it has one. */
  code?: string;
}

/**
 * The problems the editor shows (the Problems view), for `get_diagnostics`. Only the editor
 * has one. Paths outside the workspace are never reported.
 */
export interface Problems {
  /**
   * The problems of `paths` (workspace-relative; shown to the language servers first and
   * given a few seconds to settle), or of every workspace file when `undefined`: at most
   * `limit`, most serious first, then by path and line; `total` counts them all.
   */
  list(paths: readonly string[] | undefined, limit: number, signal: AbortSignal): Promise<{ problems: EditorProblem[]; total: number }>;
}

/** A place in a workspace file. Lines and columns are 1-based; `path` is workspace-relative. */
export interface CodePosition {
  path: string;
  line: number;
  column: number;
}

/**
 * A place the language features point at: in the workspace, with its line's text (trimmed),
 * or outside it, named only by its package.
 */
export type CodeLocation = (CodePosition & { text: string }) | { outside: string };

/** A symbol of the workspace: its name, kind (`function`, `class`…), the symbol containing it, and where it is. */
export interface CodeSymbol extends CodePosition {
  name: string;
  kind: string;
  container?: string;
  text: string;
}

/**
 * The language features of the open workspace (symbols, references, definitions), for
 * `find_symbols`, `find_references` and `go_to_definition`. Only the editor has one. A
 * location outside the workspace is never given as a path: it is `{ outside }` with the
 * package it belongs to (`typescript`), or "outside the workspace".
 */
export interface CodeNavigation {
  /** Workspace symbols whose name matches `query` (the language servers' fuzzy match), at most `limit`; symbols outside the workspace are left out. */
  symbols(query: string, limit: number, signal: AbortSignal): Promise<CodeSymbol[]>;
  /** Where the symbol at `at` is used (its declaration included), at most `limit`; `total` counts them all. */
  references(at: CodePosition, limit: number, signal: AbortSignal): Promise<{ locations: CodeLocation[]; total: number }>;
  /** Where the symbol at `at` is defined. */
  definitions(at: CodePosition, signal: AbortSignal): Promise<CodeLocation[]>;
}

/** A tool call the workspace trust gate refused: which run, step and tool. */
export interface TrustRefusal {
  runId: string;
  stepId: string;
  stepTitle: string;
  /** The tool's name. */
  tool: string;
}

/** How `gateByWorkspaceTrust` learns about workspace trust and tells the user about a refusal. */
export interface WorkspaceTrustGate {
  /** Read at every call, so trust granted while the window is open applies to the next step (no reload). */
  isTrusted(): boolean;
  /** Called once per refused call, before the step fails with the reason. */
  onRefused(refusal: TrustRefusal): void;
}
