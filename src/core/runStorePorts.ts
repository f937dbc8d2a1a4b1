// Ports of what a run keeps: its journal (`RunStore`) and the checkpoints of the files it changed (`CheckpointStore`).
// Every port of the core is in a `*Ports.ts` file at the root of src/core (docs/architecture.md, Ports).

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
  /** Only one this store wrote (replay trusts its state as the run's at its event): none rather than one of doubtful origin. */
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
 * Seals what a journal says the user answered, so that only answers this user's Task Planner journaled are taken back
 * from it: a journal lies where others may write it (the command line keeps journals in the workspace, which a
 * repository can commit). The key is the user's, the same in every Task Planner process of the user.
 */
export interface AnswerSeal {
  /** The message authentication code of `text` under the user's key, as hex; the same text always gives the same code. */
  mac(text: string): string;
}

/**
 * Where runs are journaled (docs/architecture.md §4): an append-only list of events per run plus
 * periodic snapshots. Appends of one run are issued in order, one batch at a time.
 */
export interface RunStore {
  /**
   * Adds `entries` at the end of the run's journal. One that fails leaves the journal without any of them, and they are
   * written first by the run's next append (an empty one writes just them), so the journal never has a gap.
   */
  append(runId: string, entries: readonly JournalEntry[]): Promise<void>;
  /**
   * Makes what the run's journal holds so far survive a power loss, not just a crash of this process (the file's data
   * and its name flushed to the disk), before the caller does what the journal must be able to tell happened: start a
   * command. Nothing appended yet is nothing to make durable.
   */
  sync(runId: string): Promise<void>;
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
  /**
   * Where `path` led through symbolic links when the change was made (workspace-relative), when that was elsewhere: Undo
   * writes back through a link only while it still leads there. Absent in checkpoints written before it was kept.
   */
  resolvedPath?: string;
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
  /**
   * The run's records this store holds but does not vouch for, each in its latest state, left out of `list`: in a folder a
   * repository can write (the CLI's `.task-planner/runs`), a record without the user's seal, which a repository may have
   * committed to make Undo write what it chose (`loadCheckpointFile`'s `seal`). Undo names their files and leaves them
   * alone. Absent where every record is the store's own (memory, the editor's storage).
   */
  unvouched?(runId: string): Promise<Checkpoint[]>;
}
