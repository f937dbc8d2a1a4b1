/** The digest of everything a run of a mutation group reads from the repository; see mutationInputs.mjs. */
export declare function mutationInputsDigest(
  root: string,
  group: { readonly name: string; readonly mutate: readonly string[]; readonly spec: readonly string[]; readonly [setting: string]: unknown },
): string;
