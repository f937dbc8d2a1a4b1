import { resolve } from 'node:path';
import type { CapabilityCatalogue } from '../core/capabilities/capabilityCatalogue';
import { readCapabilities } from '../core/capabilities/readCapabilities';
import { createNodeWorkspace } from '../node/nodeWorkspace';
import type { CliIo } from './cliIo';

/**
 * The workspace's instructions and skills (`readCapabilities` over the workspace, confined
 * like the tools), each file that could not be used reported on stderr with its problem.
 * The command line reads no skills folder outside the workspace.
 */
export async function cliCapabilities(options: { workspace: string; allowHardLinks?: boolean }, io: CliIo, signal?: AbortSignal): Promise<CapabilityCatalogue> {
  const workspace = createNodeWorkspace(resolve(options.workspace), { allowHardLinks: options.allowHardLinks ?? false });
  const catalogue = await readCapabilities(workspace, signal === undefined ? {} : { signal });
  for (const diagnostic of catalogue.diagnostics) io.err(`Skills and instructions: ${diagnostic.file}: ${diagnostic.message}`);
  return catalogue;
}
