import { expect, it } from 'vitest';
import { useFaultHarness } from '../support/fault-harness.ts';
import { eventually } from '../support/eventually.ts';
import {
  loggedUnsubscribed,
  projectWithDevices,
  runOf,
  subscribedToday,
  unsubscribedOf,
} from '../support/gathered-refusals.ts';
import { claimRefusals, gatherRefusals } from '../../src/refusals/gathered-refusals.ts';
import { sweepRefusals } from '../../src/refusals/flush-refusals.ts';

const harness = useFaultHarness({ ownRedis: true });

it('Redis restarted from its append-only file while refused devices wait in it, pending or claimed by a flusher that died: each is written once', async () => {
  const { ingress } = harness;
  const deps = ingress.context;
  const { project, ids } = await projectWithDevices(ingress, 20);
  const before = await subscribedToday(ingress, project);
  const notificationId = 'refusals-across-a-restart';
  await gatherRefusals(deps, runOf(project, notificationId, ids.slice(0, 10)));
  // A flusher claims these and dies before writing them; its lease is over by the time Redis is back.
  const claimed = await claimRefusals(deps, notificationId, { leased: false, leaseMs: 0 });
  expect(claimed.runs).toHaveLength(1);
  await gatherRefusals(deps, runOf(project, notificationId, ids.slice(10)));

  await harness.redis!.kill();
  await harness.redis!.start();

  // The ingress's connection fails fast until it has reconnected; a sweep repeated meanwhile writes nothing twice.
  await eventually(async () => expect(await sweepRefusals(deps)).toEqual({ notifications: 1 }), 30_000);
  expect(await unsubscribedOf(ingress, project)).toEqual([...ids].sort());
  expect(await loggedUnsubscribed(ingress, notificationId)).toEqual([...ids].sort());
  expect(await subscribedToday(ingress, project)).toBe(before - ids.length);
  expect(await sweepRefusals(deps)).toEqual({ notifications: 0 });
}, 90_000);
