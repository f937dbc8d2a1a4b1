/** One module group mutated by StrykerJS (see mutationGroups.mjs for the meaning of each field). */
export interface MutationGroup {
  readonly name: string;
  readonly ci: boolean;
  /** Lowest mutation score accepted for every file of the group, in percent. */
  readonly threshold: number;
  /** Globs relative to the repository root; a leading `!` leaves files out. */
  readonly mutate: readonly string[];
  readonly spec: readonly string[];
  readonly ignoreStatic?: boolean;
  readonly grep?: string;
}

export declare const mutationGroups: readonly MutationGroup[];

export declare function reportDirectory(groupName: string): string;
