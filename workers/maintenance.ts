import { runWorkerProcess } from '../src/worker-runtime/run-worker-process.ts';
import { queueNames } from '../src/queues/names.ts';
import { maintenanceProcessor } from '../src/maintenance/maintenance-processor.ts';

await runWorkerProcess(queueNames.maintenance, maintenanceProcessor, 1);
