/**
 * What a failure's message needs in a log's last lines to be recognised and reproduced: its first lines (an assertion's
 * actual and expected values; a property's seed and counterexample) and the error it was caused by. Six lines at most.
 */
export declare function failureSummary(error: unknown): string;
