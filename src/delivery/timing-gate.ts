import type { Job } from 'bullmq';
import type { BatchDevice, DeliverJobData } from '../queues/deliver.ts';
import type { ProjectSettings } from '../schemas/project-settings.ts';
import type { DeliveryWorker } from './delivery-worker.ts';
import type { BatchProgress } from './batch-progress.ts';
import type { PreparedNotification } from './prepared-notification.ts';
import type { Rendered } from './rendered-push.ts';
import { deviceZone, nextLocalTime, quietUntil } from '../targets/local-clock.ts';
import { groupHeld, splitOffHeld } from './held-parts.ts';
import { withinFrequencyCap } from './capped-pushes.ts';
import { expiredReason, expiresAt } from './push-expiry.ts';
import { reportUnsent } from './report-outcomes.ts';

/**
 * Where a batch's pushes meet the project's timing rules (CONTRACTS §15), just before they are handed to a gateway:
 * a device whose local send time has not come, or whose local time is inside the quiet hours, waits in a held part;
 * the frequency cap then admits the rest. Settings are read for each run, so a change reaches every push not yet sent.
 */
export class TimingGate {
  private readonly worker: DeliveryWorker;
  private readonly job: Job<DeliverJobData>;
  private readonly progress: BatchProgress;
  private settings: ProjectSettings | null = null;

  constructor(worker: DeliveryWorker, job: Job<DeliverJobData>, progress: BatchProgress) {
    this.worker = worker;
    this.job = job;
    this.progress = progress;
  }

  /** A canceled notification sends nothing more: its held parts and throttled batches end here. */
  async canceled(): Promise<boolean> {
    const filter = { _id: this.job.data.notificationId, status: 'canceled' as const };
    return (await this.worker.deps.models.Notification.exists(filter)) !== null;
  }

  /** The devices due now; the others are split off into held parts, or have expired (failed, reason `expired`). */
  async due(notification: PreparedNotification, devices: BatchDevice[]): Promise<BatchDevice[]> {
    this.settings = await this.worker.settings.get(this.job.data.projectId);
    if (devices.length > 0 && Date.now() > expiresAt(notification, this.job.data)) {
      await this.expire(notification, devices);
      return [];
    }
    let remaining = devices;
    const saved = this.job.data.holding;
    if (saved) {
      await splitOffHeld(this.worker, this.job, this.progress, saved, true);
      remaining = devices.filter((device) => !this.progress.isDone(device.deviceId));
    }
    const now = Date.now();
    // Everything but the zone is the same for every device of the run: one answer per zone.
    const byZone = new Map<string, number | null>();
    const held: { device: BatchDevice; releaseAt: number }[] = [];
    const due: BatchDevice[] = [];
    for (const device of remaining) {
      const zone = deviceZone(device, this.settings);
      let releaseAt = byZone.get(zone);
      if (releaseAt === undefined) {
        releaseAt = this.heldUntil(notification, zone, now);
        byZone.set(zone, releaseAt);
      }
      if (releaseAt === null) due.push(device);
      else held.push({ device, releaseAt });
    }
    await splitOffHeld(this.worker, this.job, this.progress, groupHeld(held), false);
    return due;
  }

  /** The rendered pushes the frequency cap lets through (withinFrequencyCap). */
  admit(notification: PreparedNotification, rendered: Rendered[]): Promise<Rendered[]> {
    return withinFrequencyCap(this.worker, this.job.data, this.progress, notification, this.settings, rendered);
  }

  private async expire(notification: PreparedNotification, devices: BatchDevice[]): Promise<void> {
    this.progress.tally.count('failed', devices.length);
    for (const device of devices) this.progress.settle(device.deviceId);
    const unsent = devices.map((device) => ({ device, outcome: 'expired' as const, reason: expiredReason }));
    await reportUnsent(this.worker.deps, this.job.data, unsent);
    const { batch } = this.job.data;
    this.worker.deps.log.warn(
      { notificationId: notification.id, batch, failed: devices.length, reason: expiredReason },
      'held pushes expired before they could be sent',
    );
  }

  /** When the device's push may go, if not now: its local send time, else the end of its quiet hours. */
  private heldUntil(notification: PreparedNotification, zone: string, now: number): number | null {
    const { localTime, ignoreQuietHours } = notification.timing;
    if (localTime !== undefined) {
      const sendAt = nextLocalTime(notification.sendFrom.getTime(), zone, localTime);
      if (sendAt > now) return sendAt;
    }
    const quiet = this.settings?.quietHours;
    return quiet && !ignoreQuietHours ? quietUntil(now, zone, quiet) : null;
  }
}
