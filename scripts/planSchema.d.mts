/** The schema file's name in the build's output folder. */
export const planSchemaFileName: string;
/** Writes `planFileSchemaText()` to `outdir/plan.schema.json`; resolves to the path written. */
export function writePlanSchema(outdir: string): Promise<string>;
