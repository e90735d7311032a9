import { runWorkerProcess } from '../src/worker-runtime/run-worker-process.ts';
import { queueNames } from '../src/queues/names.ts';
import { deliverProcessor } from '../src/delivery/deliver-processor.ts';

// Deliveries mostly wait on gateway round trips, so one process keeps many batches in flight.
await runWorkerProcess(queueNames.deliver, deliverProcessor, 16);
