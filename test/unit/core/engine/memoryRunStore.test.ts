import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { describeRunStoreDeleteConformance } from '../../conformance/runStoreConformance';

describeRunStoreDeleteConformance('memory', async () => ({ store: createMemoryRunStore(), dispose: async () => undefined }));
