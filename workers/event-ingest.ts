import { runWorkerProcess } from '../src/worker-runtime/run-worker-process.ts';
import { queueNames } from '../src/queues/names.ts';
import { eventIngestProcessor } from '../src/events/event-ingest-processor.ts';

await runWorkerProcess(queueNames.eventIngest, eventIngestProcessor, 8);
