import type { Plan } from '../plan/planSchema';
import { readChecklist, writeChecklist } from './checklistFormat';
import { readCopilot, writeCopilot } from './copilotFormat';
import { readCursor, writeCursor } from './cursorFormat';
import type { InteropFormat } from './interopFormats';
import { readKiro, writeKiro } from './kiroFormat';
import type { SourceDocument } from './sourceTasks';
import { readSpecKit, writeSpecKit } from './specKitFormat';

/** How one format is read (`name` is the file's, the title when it has none) and written. */
export interface InteropCodec {
  read: (text: string, name: string) => SourceDocument & { problem?: string };
  write: (plan: Plan) => string;
}

/** The reader and writer of every format of `interopFormats`. */
export const interopCodecs: Record<InteropFormat, InteropCodec> = {
  speckit: { read: readSpecKit, write: writeSpecKit },
  kiro: { read: readKiro, write: writeKiro },
  cursor: { read: readCursor, write: writeCursor },
  copilot: { read: readCopilot, write: writeCopilot },
  checklist: { read: readChecklist, write: writeChecklist },
};
