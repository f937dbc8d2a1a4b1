import type { FileProposal } from '../interactionPorts';

/** The file a proposal changes, as shown to the user: its path, and where it really leads when a symbolic link is on the way. */
export function proposalTarget(proposal: FileProposal): string {
  return proposal.resolvedPath === undefined ? proposal.path : `${proposal.path} (through a symbolic link: ${proposal.resolvedPath})`;
}
