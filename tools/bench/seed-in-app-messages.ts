import type { Models } from '../../src/models/index.ts';
import { createBlockingRedis } from '../../src/infra/redis.ts';
import type { BenchEnvironment } from './bench-environment.ts';
import { InAppMessageStore } from '../../src/in-app/in-app-message-store.ts';
import { randomUUID } from 'node:crypto';
import { RenderPool } from '../../src/rendering/render-pool.ts';

/**
 * The in-app mix's project (issue 37's target): `active` messages, `targeted` of them each to a segment of its own
 * (tag conditions on the seeded `plan` and `visits`), the rest to every device; some with
 * Liquid reading the device's tags; the messages are written through the store the API uses.
 */
export async function seedInAppMessages(
  bench: BenchEnvironment,
  projectId: string,
  active = 50,
  targeted = 8,
): Promise<void> {
  const { models } = bench;
  // The store renders each message once as it saves it: one thread of its own, closed once they are saved.
  const renderer = new RenderPool({ threads: 1, timeoutMs: 1_000 });
  const redis = createBlockingRedis(bench.services.redisUrl);
  try {
    const config = { queuePrefix: bench.env.QUEUE_PREFIX! };
    await seedEach(new InAppMessageStore({ models, renderer, redis, config }), models, projectId, active, targeted);
  } finally {
    redis.disconnect();
    await renderer.close();
  }
}

async function seedEach(
  messages: InAppMessageStore,
  models: Models,
  projectId: string,
  active: number,
  targeted: number,
) {
  for (let index = 0; index < active; index++) {
    const segment =
      index < targeted
        ? await models.Segment.create({
            _id: randomUUID(),
            projectId,
            name: `in-app ${index}`,
            match: 'all',
            conditions: [
              { tag: 'plan', op: 'eq', value: index % 2 === 0 ? 'pro' : 'free' },
              { tag: 'visits', op: 'gte', value: index % 10 },
            ],
          })
        : null;
    await messages.create(projectId, {
      name: `message ${index}`,
      status: 'active',
      layout: index % 2 === 0 ? 'modal' : 'banner',
      title: index % 3 === 0 ? 'Hi {{ device.tags.plan | default: "there" }}' : `Offer ${index}`,
      body: `You have {{ device.tags.visits | default: 0 }} visits (${index})`,
      buttons: [{ id: 'go', text: 'Go', action: 'url', url: 'https://shop.example/offer' }],
      trigger: index % 5 === 0 ? { on: 'session_start' } : { event: `event_${index % 7}` },
      segmentId: segment?._id ?? null,
      frequency: index % 3 === 0 ? 'once' : index % 3 === 1 ? 'always' : { everyDays: 1 },
      priority: index % 10,
    });
  }
}
