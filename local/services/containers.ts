import type { StartedService } from './started-service.ts';

// testcontainers is imported only here, and only when a Docker engine answers, so the local path never loads it.

export async function startRedisContainer(): Promise<StartedService> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer('redis:7')
    .withExposedPorts(6379)
    .withWaitStrategy(Wait.forLogMessage('Ready to accept connections'))
    .start();
  const address = `${container.getHost()}:${container.getMappedPort(6379)}`;
  return {
    url: `redis://${address}`,
    description: `Docker container redis:7 on ${address}`,
    pids: [],
    stop: async () => {
      await container.stop();
    },
  };
}

export async function startMongoContainer(): Promise<StartedService> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer('mongo:8')
    .withExposedPorts(27017)
    .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
    .start();
  const address = `${container.getHost()}:${container.getMappedPort(27017)}`;
  return {
    url: `mongodb://${address}`,
    description: `Docker container mongo:8 on ${address}`,
    pids: [],
    stop: async () => {
      await container.stop();
    },
  };
}
