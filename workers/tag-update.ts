import { runWorkerProcess } from '../src/worker-runtime/run-worker-process.ts';
import { queueNames } from '../src/queues/names.ts';
import { tagUpdateProcessor } from '../src/user-tags/tag-update-processor.ts';

await runWorkerProcess(queueNames.tagUpdate, tagUpdateProcessor, 4);
