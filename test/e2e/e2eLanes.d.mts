/** The `*.test.ts` files of `folder` in `count` lanes of about equal expected time; see e2eLanes.mjs. */
export declare function e2eLanes(folder: string, count: number): string[][];
