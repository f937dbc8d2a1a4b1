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
  /** The writer puts each task back among the file's other lines and names the dependencies it named (`TasksToPlanOptions.layout`). */
  layout: boolean;
}

/** The reader and writer of every format of `interopFormats`. */
export const interopCodecs: Record<InteropFormat, InteropCodec> = {
  speckit: { read: readSpecKit, write: writeSpecKit, layout: true },
  kiro: { read: readKiro, write: writeKiro, layout: true },
  cursor: { read: readCursor, write: writeCursor, layout: false },
  copilot: { read: readCopilot, write: writeCopilot, layout: false },
  checklist: { read: readChecklist, write: writeChecklist, layout: true },
};
