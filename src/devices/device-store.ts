import type { Deps } from '../deps.ts';
import type { Models } from '../models/index.ts';
import { deviceKey, type DeviceDocument } from '../models/device.ts';
import type { RegisterDeviceBody, UpdateDeviceBody } from '../schemas/device.ts';
import {
  localeFields,
  noSubscriptionReason,
  pushAddress,
  registration,
  subscribedCount,
} from './registration-fields.ts';
import type { TagChanges } from '../schemas/tags.ts';
import { invalidFields, notFound } from '../errors.ts';
import { applyTagChanges, tooManyTags } from './apply-tag-changes.ts';
import { changeDevice } from './change-device.ts';
import { DeviceReads } from './device-reads.ts';
import { firstSessionEvents } from './first-session-events.ts';
import { MicroBatchedInserts } from '../infra/micro-batched-inserts.ts';
import { customerKeyedDocument } from '../models/customer-keyed-insert.ts';
import { publicHttpsUrlProblem } from '../net/public-url.ts';
import { addToDay } from '../overview/daily-counts.ts';

type StoredDevice = DeviceDocument;

/** New devices of every project in one insert at most: a burst of one project's is not a queue for another's. */
const newDevicesPerInsert = 100;

/**
 * Every device write is a revision-guarded read and update of the device's document (changeDevice): the tag limit
 * holds under concurrent writers, and no writer's change is lost.
 */
export class DeviceStore {
  private readonly deps: Pick<Deps, 'config' | 'models' | 'queues' | 'redis' | 'log'>;
  private readonly models: Models;
  private readonly reads: DeviceReads;
  private readonly inserts: MicroBatchedInserts;
  private readonly firstSessions: ReturnType<typeof firstSessionEvents>;

  constructor(deps: Pick<Deps, 'config' | 'models' | 'queues' | 'redis' | 'log'>) {
    this.deps = deps;
    this.models = deps.models;
    this.reads = new DeviceReads(deps.models);
    this.inserts = new MicroBatchedInserts(deps.models.Device.collection, newDevicesPerInsert);
    this.firstSessions = firstSessionEvents(deps);
  }

  async find(projectId: string, deviceId: string): Promise<StoredDevice> {
    const device = await this.reads.byKey(deviceKey(projectId, deviceId));
    if (!device) throw notFound(`No device "${deviceId}" in this project.`);
    return device;
  }

  /** Updates the device, or else creates it; a request that loses the race to create it goes back to updating it. */
  async register(projectId: string, deviceId: string, input: RegisterDeviceBody): Promise<StoredDevice> {
    this.assertReachable(input);
    for (;;) {
      const changed = await this.change(deviceKey(projectId, deviceId), registration(input), input.tags);
      if (changed) return changed;
      const created = await this.create(projectId, deviceId, input);
      if (created) return created;
    }
  }

  /**
   * A Web Push endpoint the live gateway would refuse to call is refused now, not stored to fail every send. In
   * sandbox mode every push goes to the sandbox whatever the endpoint's host, so its own loopback endpoints are taken.
   */
  private assertReachable(input: RegisterDeviceBody): void {
    if (!input.webPush) return;
    const allowPrivate = this.deps.config.pushGateway === 'sandbox';
    const problem = publicHttpsUrlProblem(input.webPush.endpoint, { allowPrivate });
    if (problem) throw invalidFields([{ path: '/webPush/endpoint', message: problem }]);
  }

  async update(projectId: string, deviceId: string, input: UpdateDeviceBody): Promise<StoredDevice> {
    const fields = { ...(input.userId !== undefined && { userId: input.userId }), ...localeFields(input) };
    const changed = await this.change(deviceKey(projectId, deviceId), () => fields, input.tags);
    if (!changed) throw notFound(`No device "${deviceId}" in this project.`);
    return changed;
  }

  /** The device after the change, or null when there is none; a 400 when the change would pass the tag limit. */
  private async change(
    key: string,
    fieldsFor: (current: DeviceDocument) => Partial<DeviceDocument>,
    changes: TagChanges | undefined,
  ): Promise<StoredDevice | null> {
    const current = await this.reads.byKey(key);
    if (!current) return null;
    const result = await changeDevice(this.models, { _id: key }, fieldsFor, changes, current);
    if (result && 'tagCount' in result) throw tooManyTags(result.tagCount);
    if (!result) return null;
    const { device, previous } = result;
    await addToDay(this.deps, device.projectId, { subscribed: subscribedCount(device) - subscribedCount(previous) });
    return device;
  }

  /**
   * Creates the device and records @first_session, or answers null when a concurrent request created it first (that
   * request records the event; this one then updates the device). If the event cannot be queued the device is
   * removed again, so a failed request leaves nothing behind and the client's retry creates the device and its
   * event together; but only while no other request has written it (revision 0): a concurrent registration answered
   * 200 keeps its device, which then goes without @first_session rather than lose an acknowledged write.
   */
  private async create(projectId: string, deviceId: string, input: RegisterDeviceBody): Promise<StoredDevice | null> {
    const address = pushAddress(input);
    const fields = {
      _id: deviceKey(projectId, deviceId),
      projectId,
      deviceId,
      platform: input.platform,
      ...address,
      ...(address.pushToken === null && {
        isSubscribed: false,
        unsubscribedAt: new Date(),
        unsubscribeReason: noSubscriptionReason,
      }),
      userId: input.userId ?? null,
      ...localeFields(input),
      tags: applyTagChanges({}, input.tags),
    };
    const document = await customerKeyedDocument(this.models.Device, fields, ['tags']);
    // New devices registered at once go in one insert: under a burst of first sessions, the server's time per command.
    const [inserted] = await this.inserts.insert([document]);
    if (!inserted) return null;
    try {
      await this.firstSessions({ projectId, deviceId });
    } catch (error) {
      await this.models.Device.deleteOne({ _id: document._id, revision: 0 }).catch(() => undefined);
      throw error;
    }
    await addToDay(this.deps, projectId, { subscribed: subscribedCount(document) });
    return document;
  }
}
