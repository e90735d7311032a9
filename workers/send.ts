import { runWorkerProcess } from '../src/worker-runtime/run-worker-process.ts';
import { queueNames } from '../src/queues/names.ts';
import { databaseSegmentResolver } from '../src/targets/segment-resolver.ts';
import { sendProcessor } from '../src/delivery/send-processor.ts';

await runWorkerProcess(queueNames.send, (context) => sendProcessor(context, databaseSegmentResolver(context)), 4);
