/**
 * The real clock lives in `src/core/time/timerClock.ts`, outside the engine's folder (whose
 * scheduling code must not touch timers); this name stays importable for existing callers.
 */
export { timerClock } from '../time/timerClock';
