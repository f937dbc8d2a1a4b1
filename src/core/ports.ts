import type { LlmChatRequest, LlmChatResponse } from './llm/llmTypes';
import type { Attachment } from './plan/planSchema';
import type { TraceSpan } from './trace/traceSpan';

/**
 * The ports through which the core reaches the outside world, all of them in this file.
 * Each has an in-memory fake in `test/fakes` (or a memory implementation in the core), a
 * Node implementation in `src/node` and, where the editor needs its own, a VS Code one in
 * `src/vscode`. Nothing in `src/core` may reach the outside world any other way.
 */

/** Time and waiting. `now()` is in milliseconds since the epoch. */
export interface Clock {
  now(): number;
  /** Resolves after `ms` milliseconds; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Structured trace output. Implementations must never log secrets. */
export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/** Metadata of one workspace entry; `size` in bytes, `mtimeMs` in milliseconds. */
export interface FileStat {
  type: 'file' | 'directory';
  size: number;
  mtimeMs: number;
  /** Permission bits (`0o7777` at most), where the file system keeps them. */
  mode?: number;
}

/**
 * What a workspace listing found: `files`, workspace-relative and sorted, and the folders
 * below the root it was not allowed to read (`unreadable`, sorted), whose files are missing
 * from `files`: the listing goes on without them, as git and ripgrep do.
 */
export interface WorkspaceListing {
  files: string[];
  unreadable: string[];
}

/**
 * Which content a change was computed from: the file was absent, or its bytes had this
 * sha256 (hex). A link is judged by the file it leads to.
 */
export type ExpectedContent = { exists: false } | { exists: true; sha256: string };

/** Options of a change (`writeText`, `delete`). */
export interface ChangeOptions {
  /** Change only while the file is still this version; a mismatch rejects with `WorkspaceError` code `changed`. */
  expected?: ExpectedContent;
  /** Permission bits of a file `writeText` creates (an existing file keeps its own), where the file system keeps them. */
  mode?: number;
  /** The step making the change, for a question an editor asks about it (a file open with unsaved changes); never checked. */
  by?: { stepId: string; stepTitle: string };
}

/**
 * The open workspace's files. Every path is workspace-relative with `/` separators;
 * implementations refuse any path that resolves outside the root (see `resolveInRoot`).
 */
export interface WorkspaceFs {
  /** A display name of the root (a folder path or URI). */
  readonly rootLabel: string;
  /**
   * The file's text (UTF-8). With `options.maxBytes`, a larger file is refused with a
   * `WorkspaceError` of code `too_large` before it is read.
   */
  readText(path: string, signal?: AbortSignal, options?: { maxBytes?: number }): Promise<string>;
  /**
   * The file's bytes, under the same rules as `readText` (confined, regular files only,
   * `options.maxBytes` refused before reading). Optional: a workspace without it cannot
   * hand images to a model, and says so.
   */
  readBytes?(path: string, signal?: AbortSignal, options?: { maxBytes?: number }): Promise<Uint8Array>;
  /**
   * Writes atomically: a temporary file in the same directory, then a rename. With
   * `options.expected`, the write happens only while the file is still that version
   * (checked right before the rename); otherwise nothing changes and it rejects with a
   * `WorkspaceError` of code `changed`.
   */
  writeText(path: string, text: string, signal?: AbortSignal, options?: ChangeOptions): Promise<void>;
  /** Deletes the file (a link goes itself) or empty directory; `options.expected` as in `writeText`. */
  delete(path: string, signal?: AbortSignal, options?: ChangeOptions): Promise<void>;
  createDirectory(path: string, signal?: AbortSignal): Promise<void>;
  /** The files matching `glob` (all files without one), and the folders that could not be read. */
  list(glob?: string, signal?: AbortSignal): Promise<WorkspaceListing>;
  /** `undefined` when nothing exists at `path`. */
  stat(path: string, signal?: AbortSignal): Promise<FileStat | undefined>;
  /**
   * Where `path` leads once symbolic links are followed, workspace-relative (for a path
   * that does not exist yet: its existing part resolved, plus the rest). Refuses what the
   * other methods refuse. Optional: a workspace without links does not need it.
   */
  locate?(path: string, signal?: AbortSignal): Promise<string>;
  /**
   * A faster way to tell which files can hold a match of a `search_text` query (the
   * ripgrep that VS Code ships, one on `PATH`, or a pool of reader threads). Optional:
   * without it every listed file is read on the caller's thread.
   */
  readonly textSearcher?: TextSearcher;
}

/** A `search_text` query as a `TextSearcher` sees it. `pattern` is JavaScript syntax when `regex`. */
export interface TextQuery {
  pattern: string;
  regex: boolean;
  caseSensitive: boolean;
}

/**
 * Which files of a workspace can hold a line matching a query: `matched` are the
 * workspace-relative paths of the files it found a match in, `seen` every file it looked
 * at. A file it did not see (a link, a file its own ignore rules skip) may match all the
 * same. Matching lines, columns and texts always come from the core's own reader; a file
 * seen without a match is counted as searched, so a searcher that leaves binary files and
 * names the reader refuses unseen keeps the counts of skipped files the reader's.
 */
export interface TextNarrowing {
  matched: ReadonlySet<string>;
  seen: ReadonlySet<string>;
}

/**
 * Narrows a workspace search to the files worth reading. It must never leave out a file it
 * saw that holds a line matching the query as `search_text` matches it (it may name more),
 * and never read outside the root; `undefined` when it cannot answer (no program, a pattern
 * it cannot be sure of, a failure, a time or output limit), and then the caller reads every
 * file. `listed` settles with the workspace-relative files the search covers, in path
 * order, once the workspace has listed them (a searcher that walks by itself may ignore
 * it); when it rejects, `narrow` may reject likewise. Rejects with the signal's reason when
 * `signal` aborts.
 */
export interface TextSearcher {
  narrow(query: TextQuery, listed: Promise<readonly string[]>, signal?: AbortSignal): Promise<TextNarrowing | undefined>;
}

/** A change to one file, shown to the user before it is applied. */
export interface FileProposal {
  path: string;
  /** `undefined` when the file does not exist yet. */
  currentText: string | undefined;
  /** `undefined` for a deletion. */
  proposedText: string | undefined;
  /** Unified diff of current → proposed. */
  diff: string;
  /** Where `path` really leads through symbolic links, when that differs from `path`. */
  resolvedPath?: string;
}

/**
 * Set by the engine on every request it passes on: the id of the pending request (see
 * `PendingRequest.id`). A UI that keeps a prompt around (a diff tab, a dialog) answers
 * with it, so an answer reaches only the request that was shown.
 */
interface RequestIdentity {
  requestId?: string;
}

/** A workspace-relative file a run changed, and the steps that changed it (ids, in the order they first did). */
export interface FileChangedInRun {
  path: string;
  stepIds: readonly string[];
}

/** Which attempt of its step asks, when it is a retry: `attempt` of at most `of`, after one that failed with `lastError` (bounded). */
export interface RetryNote {
  attempt: number;
  of: number;
  lastError?: string;
}

/**
 * What a step asks the user to allow: a file change, a command, or a new directory. The
 * engine adds `retry` when a retry of the step asks (the question then says which attempt,
 * and why the one before failed); it is not part of what an answer is bound to.
 */
export type ApprovalRequest = RequestIdentity & {
  retry?: RetryNote;
  /**
   * Present when a model does the step's work (an agent step): a rejection's feedback is
   * told to it and it proposes again. Without it nobody would act on the words, so
   * "Reject with feedback…" is not offered; feedback given anyway is only the reason.
   */
  feedbackHeard?: true;
} &
  (
    | {
        kind: 'file';
        stepId: string;
        title: string;
        operation: 'write' | 'edit' | 'delete';
        proposal: FileProposal;
        /** Present when the file lies outside the files the step declared it would change (its `writes`): such a change asks under every policy. */
        outsideScope?: true;
        /**
         * Present when this step was changing this file when the run was interrupted, and the file is now neither as it
         * was before nor as that change left it (someone wrote it since): the change may already be in it, so no rule,
         * policy or blanket yes answers this, as a command that may have run.
         */
        interrupted?: true;
      }
    | {
        kind: 'command';
        stepId: string;
        title: string;
        argv: string[];
        cwd: string;
        shell: boolean;
        /** Present when the step started this same command before the run was interrupted: it may already have run, and no rule or blanket yes answers it. */
        mayHaveRun?: true;
        /**
         * Present when this run changed a file that defines what the command does (its
         * `package.json`, its Makefile, the script it runs: see `commandDefiningFiles`),
         * each with the steps that changed it: no allow rule and no allowance given at
         * Start answers it (`--yes` does).
         */
        changedInRun?: FileChangedInRun[];
        /**
         * Present when `argv[0]` is found in one of the project's own program folders (a
         * Python virtual environment, `node_modules/.bin`) rather than on `PATH`: the file
         * that runs. An allow rule made for the program on `PATH` does not answer it.
         */
        program?: ProjectProgram;
        /**
         * Present when `argv[0]` is a program that runs a helper named after its subcommand
         * from `PATH` (`git lfs` runs `git-lfs`, `cargo fmt` runs `cargo-fmt`) and the helper
         * for this one is found in the project's own program folders: the file that would
         * run. No allow rule answers it.
         */
        helper?: ProgramHelper;
        /**
         * The text given to the command on its standard input, in full (the question shows
         * its start and size; the fingerprint covers all of it). No allow rule answers a
         * command given input: the rule names the command, not what it is fed.
         */
        stdin?: string;
        /** Present when an allow rule nearly allowed the command: why it does not ("the rule "git status" does not cover --output=x, which …"). */
        notAllowedBecause?: string;
      }
    | { kind: 'directory'; stepId: string; title: string; path: string }
    /**
     * A call of a tool another program runs, or one that reaches the network: `source`
     * names who runs it ("MCP server \"db\""), `input` is the arguments as the tool gets them.
     * `rememberAs`, when present, is the key under which a host may remember the user's
     * "allow every call of this tool here from now on" (the tool's owner then stops asking).
     */
    | { kind: 'tool'; stepId: string; title: string; tool: string; source: string; input: unknown; rememberAs?: string }
  );

/** The user's answer to an approval request. */
export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
  /**
   * With a rejection, what the user asks the step to do instead (Reject with feedback…): a
   * step's agent is told and proposes again within the step, up to its attempts; a step that
   * cannot propose again treats it as the rejection's reason. The engine bounds it and makes
   * it safe (`boundedFeedback`) before it goes anywhere.
   */
  feedback?: string;
}

/** A question a step asks; `suggestions` are offered as quick answers. */
export interface ClarificationRequest extends RequestIdentity {
  stepId: string;
  title: string;
  question: string;
  suggestions?: string[];
}

/** A `human_review` step's request: approve or reject what was produced so far. */
export interface ReviewRequest extends RequestIdentity {
  stepId: string;
  title: string;
  prompt: string;
}

/** The user's review decision; `notes` become part of the step result. */
export interface ReviewDecision {
  approved: boolean;
  notes?: string;
}

/**
 * A `manual` step's request: a person does the work. `instructions` is the step's input
 * with its templates resolved (else its title); `attachments` name the request's files
 * and selections; `depends` holds each direct dependency's result as text, by step id,
 * each at most `manualResultPreviewLength` characters.
 */
export interface ManualStepRequest extends RequestIdentity {
  stepId: string;
  title: string;
  instructions: string;
  attachments: Attachment[];
  depends: Record<string, string>;
}

/** What the person says about a manual step: done (the note becomes the result), or not done and why. */
export type ManualStepOutcome = { done: true; note?: string } | { done: false; reason: string };

/**
 * The user. Every method may resolve to `'defer'` when nobody can answer now
 * (a non-interactive run); the engine then suspends that step and the run ends `waiting`.
 */
export interface Interaction {
  requestApproval(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision | 'defer'>;
  // 'defer' is one of the strings, named so the reader sees the answer that parks the request.
  // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents
  askClarification(request: ClarificationRequest, signal: AbortSignal): Promise<string | 'defer'>;
  requestReview(request: ReviewRequest, signal: AbortSignal): Promise<ReviewDecision | 'defer'>;
  /** Waits until the person marked the step done or failed; may take as long as the work does. */
  requestManualStep(request: ManualStepRequest, signal: AbortSignal): Promise<ManualStepOutcome | 'defer'>;
}

/**
 * Where a run's trace goes (`src/node/otlpTraceExporter.ts`: OTLP/HTTP through the
 * OpenTelemetry SDK). `export` sends the spans of one run as one trace, their parent links
 * kept, and resolves once they were sent (it rejects when they could not be).
 */
export interface TraceExporter {
  export(spans: readonly TraceSpan[]): Promise<void>;
}

/**
 * One journal line: a run event as plain JSON. `seq` starts at 1 and increases by one
 * per event of a run; `time` is milliseconds since the epoch (from `Clock`).
 */
export interface JournalEntry {
  type: string;
  runId: string;
  seq: number;
  time: number;
  [field: string]: unknown;
}

/** A folded run state saved so replay can start after `seq` instead of at the beginning. */
export interface JournalSnapshot {
  seq: number;
  time: number;
  state: unknown;
}

/** What `RunStore.load` found: every readable entry in order, the newest snapshot, and damage. */
export interface LoadedJournal {
  entries: JournalEntry[];
  snapshot?: JournalSnapshot;
  /** A last line cut short by a crash: skipped, reported here, and never fatal. */
  tornLine?: { lineNumber: number; text: string };
  /** The 1-based line of each entry in a line-based store, for messages naming a bad entry. */
  lines?: number[];
}

/** A stored run as listed by `RunStore.list`; `updatedAt` in milliseconds since the epoch. */
export interface RunListing {
  runId: string;
  updatedAt: number;
}

/**
 * Where runs are journaled (docs/architecture.md §4): an append-only list of events per run plus
 * periodic snapshots. Appends of one run are issued in order, one batch at a time.
 */
export interface RunStore {
  append(runId: string, entries: readonly JournalEntry[]): Promise<void>;
  /** Replaces the run's snapshot. The store must not keep a reference it later mutates. */
  writeSnapshot(runId: string, snapshot: JournalSnapshot): Promise<void>;
  /** `undefined` when the store has no run with this id. */
  load(runId: string): Promise<LoadedJournal | undefined>;
  /** Every stored run, most recently updated first. */
  list(): Promise<RunListing[]>;
  /**
   * Forgets the run: its journal and snapshot, and whatever else the store keeps for it.
   * A run the store does not have is no error; an id the store could never hold is.
   */
  delete(runId: string): Promise<void>;
}

/**
 * Where a program named without a path (`mypy`) was found when it comes from one of the
 * project's own program folders instead of `PATH` (see `CommandRunner.describeProgram`).
 */
export interface ProjectProgram {
  /** The absolute path of the file that runs. */
  path: string;
  /**
   * The program as shown and as an allow rule names it: workspace-relative
   * (`.venv/bin/mypy`) when it lies in the workspace folder, else absolute.
   */
  shown: string;
  /** Where it comes from: the workspace's Python virtual environment, the one the Python extension selected, or `node_modules/.bin`. */
  from: 'virtualEnvironment' | 'selectedPythonEnvironment' | 'nodeModules';
}

/** A helper a program runs for its subcommand (`git-lfs` for `git lfs`) found in the project's own program folders. */
export interface ProgramHelper extends ProjectProgram {
  /** The helper's name as the program looks it up (`git-lfs`). */
  name: string;
}

/** One process to start, argv without a shell. Durations in milliseconds, sizes in bytes. */
export interface CommandSpec {
  /** Program and arguments; `argv[0]` is looked up on `PATH`. Never passed to a shell. */
  argv: string[];
  /**
   * The absolute path `CommandRunner.describeProgram` found for `argv[0]` and the user was
   * shown: the runner starts exactly that file (`argv[0]` stays the process's name).
   */
  program?: string;
  /** Workspace-relative working directory (`''` for the root); the runner confines it. */
  cwd: string;
  /** Killed (with its whole process tree) after this long. */
  timeoutMs: number;
  /** Per stream (stdout, stderr): beyond it the middle is dropped, head and tail kept. */
  maxOutputBytes: number;
  /** Text written to the process's standard input, which is then closed. */
  stdin?: string;
  /** Called with output as it arrives (stdout and stderr interleaved). */
  onOutput?(text: string): void;
}

/** How a process ended. `exitCode` is `null` when it was killed by a signal. */
export interface CommandResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** True when some output was dropped to stay under `maxOutputBytes`. */
  truncated: boolean;
  durationMs: number;
  /** The program that ran when it came from a project folder rather than `PATH` (`ProjectProgram.shown`: `.venv/bin/mypy`). */
  program?: string;
}

/**
 * Starts processes for `run_command` (the Node one lives in `src/node`). Must run
 * without a shell, inside the workspace, with secret-looking environment variables removed,
 * and kill the whole process tree on timeout or when `signal` aborts (within 1 s), then
 * resolve with what it has; it rejects only when the process cannot be started, with an
 * error whose `code` is the system's reason when known (`ENOENT`: no such program; `EACCES`:
 * not executable), which `run_command` does not retry.
 */
export interface CommandRunner {
  /** The absolute working directory `cwd` resolves to, for showing the user. */
  describeCwd(cwd: string): Promise<string>;
  /**
   * Where `program` (`argv[0]`) run in the workspace-relative `cwd` comes from when it is
   * one of the project's own programs (its Python virtual environment, `node_modules/.bin`)
   * rather than one `PATH` leads to; `undefined` otherwise (on `PATH`, a path, not found).
   */
  describeProgram?(program: string, cwd: string): Promise<ProjectProgram | undefined>;
  run(spec: CommandSpec, signal: AbortSignal): Promise<CommandResult>;
}

/**
 * The user's command allow rules in force: exact argv prefixes (`["npm", "test"]`) that
 * `run_command` runs without asking (see `matchingAllowRule`). Read at every command, so a
 * rule removed, a setting changed or trust withdrawn applies to the next one; the editor's
 * leaves the workspace's own rules out in Restricted Mode.
 */
export interface CommandAllowList {
  rules(): readonly (readonly string[])[];
}

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

/** What `UrlFetcher.fetch` is asked for. Sizes in bytes. */
export interface UrlFetchRequest {
  /** An `http:` or `https:` URL without credentials, checked with `checkFetchUrl`. */
  url: string;
  /** `markdown`: an HTML page becomes the Markdown of its main content; `raw`: the body as it came. Other text (plain, JSON) is given as it is either way. */
  format: 'markdown' | 'raw';
  /** Most body bytes read (after decompression); the rest is not read and `truncated` is set. */
  maxBytes: number;
  /** Most redirects followed; each target is checked like the first URL. */
  maxRedirects: number;
}

/** A page `UrlFetcher.fetch` read. */
export interface FetchedUrl {
  /** The URL the body came from, after redirects. */
  url: string;
  /** The HTTP status of the last response. */
  status: number;
  /** The media type without parameters, lower case (`text/html`); `''` when the server gave none. */
  contentType: string;
  /** What `content` is: Markdown made from HTML, or text as the server sent it. */
  format: 'markdown' | 'text';
  /** The page's title, when it is an HTML page that has one. */
  title?: string;
  content: string;
  /** True when the body was longer than `maxBytes` and only its first part was read. */
  truncated: boolean;
}

/**
 * Reads a web page for `fetch_url` (the Node one lives in `src/node`): a GET without
 * credentials (no cookies, no authorization, no proxy authorization), following at most
 * `maxRedirects` redirects and checking each target with `checkFetchUrl`, refusing a host
 * name that resolves to a loopback, private or link-local address, reading at most
 * `maxBytes`, and stopping (rejecting with the signal's reason) when `signal` aborts.
 * Refuses a body that is not text (an image, an archive) with a message that says so.
 */
export interface UrlFetcher {
  fetch(request: UrlFetchRequest, signal: AbortSignal): Promise<FetchedUrl>;
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

/** A file's content at one moment: absent, or its text with its sha256 (hex) and, where kept, its permission bits. */
export type FileVersion = { exists: false } | { exists: true; text: string; sha256: string; mode?: number };

/**
 * Where one recorded change stands. `intended`: recorded before the change was made, and
 * not yet known to have landed (a crash in between leaves it so); `applied`: it landed;
 * `abandoned`: it failed or was refused and nothing changed; `undone`: Undo put the file
 * back. A resumed run judges every `intended` one by what is on disk before any step
 * runs: `recovered` (its result is there: it landed before the crash; the step's re-run
 * claims it as `applied` instead of making it again), `abandoned` (the file is as before),
 * or `uncertain` (neither: the step's re-run asks before changing the file). `undoing`: Undo is
 * putting this change back (recorded before it writes), so an Undo that finds the file as the
 * change found it knows whether that is its own interrupted write or the user's edit.
 */
export type CheckpointState = 'intended' | 'applied' | 'abandoned' | 'undone' | 'recovered' | 'uncertain' | 'undoing';

/** One change a run made (or meant to make) to one path: what was there before, and the hash of what it leaves. */
export interface Checkpoint {
  runId: string;
  stepId: string;
  /** Order within the run, from 1. */
  seq: number;
  /** Workspace-relative path. */
  path: string;
  operation: 'write' | 'edit' | 'delete' | 'createDirectory';
  before: FileVersion;
  /** `undefined` for an absent file (or a directory for `createDirectory`); else sha256 hex of the text written. */
  afterSha256: string | undefined;
  state: CheckpointState;
}

/**
 * Where file tools keep each change's previous content (docs/architecture.md §6), keyed by
 * run. A change is recorded (`intended`) before anything is changed and settled once it
 * landed or failed, so a crash in between leaves an `intended` record that a resumed run
 * reconciles with what is on disk; `undoRun` reads them back. In memory:
 * `createMemoryCheckpointStore`; in a file: `loadCheckpointFile` (src/node).
 */
export interface CheckpointStore {
  /** Records the intent of a change (state `intended`); resolves once it is stored. */
  record(checkpoint: Omit<Checkpoint, 'seq' | 'state'>): Promise<Checkpoint>;
  /** Records where the change `checkpoint` (as `record` returned it) ended. */
  settle(checkpoint: Checkpoint, state: Exclude<CheckpointState, 'intended'>): Promise<void>;
  /** The run's checkpoints in the order they were recorded, each in its latest state (empty for an unknown run). */
  list(runId: string): Promise<Checkpoint[]>;
}

/**
 * A language model (docs/architecture.md §5): OpenAI-compatible, VS Code LM, or a test fake. `chat`
 * honours `request.signal`, retries transient faults itself (through `Clock`), streams
 * through `request.onDelta` when `request.stream` is set, and rejects with an error whose
 * message is fit for the user and never contains an API key.
 */
export interface LlmClient {
  /** The configured model name (the response's `model` may name a snapshot of it). */
  readonly model: string;
  chat(request: LlmChatRequest): Promise<LlmChatResponse>;
}

/** What a raw file-system entry is, not following a symbolic link. */
export type RawEntryType = 'file' | 'directory' | 'link' | 'other';

/** Metadata of one raw entry; `size` in bytes, `mtimeMs` in milliseconds, `links` its hard-link count. */
export interface RawStat {
  type: RawEntryType;
  size: number;
  mtimeMs: number;
  links: number;
  /** Permission bits (`0o7777` at most); `undefined` where the file system has none to keep. */
  mode: number | undefined;
}

/** A file opened for reading; `stat` describes the opened file itself, whatever its name now names. */
export interface RawFile {
  readonly stat: RawStat;
  /** The whole file as UTF-8 text (`stat.size` bytes, fewer when it shrank meanwhile). */
  read(): Promise<string>;
  /** The whole file's bytes (`stat.size` bytes, fewer when it shrank meanwhile). */
  readBytes(): Promise<Uint8Array>;
  close(): Promise<void>;
}

/**
 * The raw file system under one workspace root, as the workspace policy
 * (`src/core/workspace/confinedWorkspace.ts`) needs it: no path checks, no policy, no
 * messages. `Handle` is an open directory: every entry is named by a handle and a single
 * name (never a path, never `.` or `..`), and nothing here follows a symbolic link except
 * `realRoot`. Where the platform can, a handle holds the directory itself, so an entry
 * is found in it even after the path that led there was swapped for a link; elsewhere it is
 * the directory's path, checked a moment earlier. Errors other than the answers below
 * propagate as they are.
 */
export interface RawDirectoryFs<Handle> {
  /** The root with its links resolved; `undefined` when it does not exist. */
  realRoot(): Promise<string | undefined>;
  /**
   * The root itself; `real` is where the handle really is (to compare with `realRoot`), `undefined` when the handle is a path. `'missing'` when there is no
   * root.
   */
  openRoot(realRoot: string): Promise<{ handle: Handle; real: string | undefined } | 'missing'>;
  /** The directory `name` in `parent`, not through a link; `real` as in `openRoot`. */
  openDirectory(parent: Handle, name: string): Promise<{ handle: Handle; real: string | undefined } | 'link' | 'missing' | 'not_directory'>;
  /** Makes the directory `name` in `parent`; `'exists'` when something is already there, `'not_directory'` when a file is on the way. */
  makeDirectory(parent: Handle, name: string): Promise<'made' | 'exists' | 'not_directory'>;
  /** The target of the link `name` in `parent`; `undefined` when it is gone. */
  readLink(parent: Handle, name: string): Promise<string | undefined>;
  /** `name` in `parent` itself (a link is not followed); `undefined` when nothing is there. */
  lstat(parent: Handle, name: string): Promise<RawStat | undefined>;
  /** The directory `handle` holds. */
  statDirectory(handle: Handle): Promise<RawStat>;
  /** Opens `name` in `parent` for reading, without following a link or blocking on a pipe. */
  openFile(parent: Handle, name: string): Promise<RawFile | 'link' | 'missing'>;
  /** The entries of the directory `handle` holds (without `.` and `..`). */
  readDirectory(handle: Handle): Promise<{ name: string; type: RawEntryType }[]>;
  /** Creates the new file `name` in `parent` with `text` (UTF-8); fails when something is there. `mode`: permission bits to give it, where kept. */
  writeNewFile(parent: Handle, name: string, text: string, mode: number | undefined): Promise<void>;
  /** Renames `fromName` in `from` over `toName` in `to`, replacing a file there. */
  rename(from: Handle, fromName: string, to: Handle, toName: string): Promise<void>;
  /** `true` when `error` (from `rename`) may mean the two directories lie on different file systems. */
  crossesDevices(error: unknown): boolean;
  /** Removes the file or link `name` in `parent` (a link goes itself, not its target). */
  removeFile(parent: Handle, name: string): Promise<void>;
  /** Removes the empty directory `name` in `parent`; `'not_empty'` when it holds entries. */
  removeDirectory(parent: Handle, name: string): Promise<'removed' | 'not_empty'>;
  /** Releases `handle`. */
  close(handle: Handle): void;
  /** Lets other work run between many quick synchronous operations; resolves at once where operations are truly asynchronous. */
  breathe(): Promise<void>;
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
