import { runWorkerProcess } from '../src/worker-runtime/run-worker-process.ts';

await runWorkerProcess('device-import');
