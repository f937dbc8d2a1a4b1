import { createMemoryWorkspace } from '../../fakes/memoryWorkspace';
import { describeWorkspaceFsConformance } from './workspaceFsConformance';

describeWorkspaceFsConformance('memory fake', async (files) => ({ workspace: createMemoryWorkspace(files), dispose: async () => undefined }));
