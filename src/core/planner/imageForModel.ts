import { workspaceImage } from '../agent/attachmentSection';
import type { Attachment } from '../plan/planSchema';
import type { WorkspaceFs } from '../workspacePorts';

/** Most bytes of an image sent to the planning model with the request (larger ones go by name). */
export const maxPlanningImageBytes = 4 * 1024 * 1024;

/**
 * An image attachment of the request as the planning model gets it (`PlanRequestOptions.attachmentForModel`): a workspace
 * image becomes a `data:` URL, which the planning prompt sends as an image part, only as `workspaceImage` reads it (through
 * the workspace's confinement, not a file tools keep from the model nor a link to one, at most `maxBytes`, and only bytes
 * that are an image, whatever the name says); anything else stays as it is, named in the prompt.
 */
export async function imageForModel(
  attachment: Attachment,
  workspace: WorkspaceFs | undefined,
  signal: AbortSignal,
  maxBytes: number = maxPlanningImageBytes,
): Promise<Attachment> {
  if (attachment.kind !== 'image' || workspace === undefined || /^(https?:|data:)/i.test(attachment.ref)) return attachment;
  const read = await workspaceImage(attachment.ref, workspace, signal, maxBytes);
  return 'url' in read ? { ...attachment, ref: read.url, label: attachment.label ?? attachment.ref } : attachment;
}
