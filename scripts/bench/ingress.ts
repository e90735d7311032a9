import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createProject } from '../../src/projects/create-project.ts';
import { openBenchEnvironment } from './bench-environment.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    connections: { type: 'string', default: '64' },
    devices: { type: 'string', default: '2000' },
    mix: { type: 'string', default: 'mixed' },
    json: { type: 'boolean', default: false },
  },
});
const deviceCount = Number(values.devices);

const bench = await openBenchEnvironment('ingress');
try {
  await bench.startIngress();
  const { baseUrl } = bench;
  const project = await createProject(bench.models, { name: 'bench', plan: 'business' });

  const deviceId = () => `device-${Math.floor(Math.random() * deviceCount)}`;
  const sdkBase = `/v1/sdk/projects/${project.projectId}/devices/`;
  const serverBase = `/v1/projects/${project.projectId}/devices/`;
  // Half registrations (client key), half reads (server key): the two hot paths of an SDK-heavy day.
  const registration = {
        method: 'PUT' as const,
        setupRequest: (request: autocannon.Request) => ({
          ...request,
          path: sdkBase + deviceId(),
          headers: { authorization: `Bearer ${project.clientKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ platform: 'android', pushToken: `token-${Math.random()}`, tags: { plan: 'pro', visits: 3 } }),
        }),
  };
  const read = {
    method: 'GET' as const,
    setupRequest: (request: autocannon.Request) => ({ ...request, path: serverBase + deviceId(), headers: { authorization: `Bearer ${project.apiKey}` } }),
  };
  if (values.mix === 'reads') {
    // Reads need devices to read: register them all first, outside the measured run.
    await Promise.all(
      Array.from({ length: deviceCount }, (_, index) =>
        fetch(`${baseUrl}${sdkBase}device-${index}`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${project.clientKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ platform: 'android', pushToken: `token-${index}` }),
        }),
      ),
    );
  }
  const result = await autocannon({
    url: baseUrl,
    connections: Number(values.connections),
    duration: Number(values.seconds),
    requests: values.mix === 'reads' ? [read] : [registration, read],
  });
  const summary = {
    mix: values.mix,
    seconds: Number(values.seconds),
    connections: Number(values.connections),
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    // Reads of devices not registered yet answer 404, which is a correct answer, not an error.
    statusCounts: { '2xx': result['2xx'], '4xx': result['4xx'], '5xx': result['5xx'] },
  };
  if (values.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else process.stdout.write(`${autocannon.printResult(result)}\n${JSON.stringify(summary, null, 2)}\n`);
} finally {
  await bench.close();
}
