import type { Job } from 'bullmq';
import type { FanOutProgress, LocalTimeProgress, QueuedZoneParts, SendJobData, ZonePartPlan } from '../queues/send.ts';
import type { SegmentResolver } from '../targets/segment-resolver.ts';
import type { TargetDevice, TargetProjection } from '../targets/target-device.ts';
import { enqueueHeldParts, gatewayForDevice, zonePartJobId } from '../queues/deliver.ts';
import type { GatewayName } from '../gateways/gateway.ts';
import { readProjectSettings } from '../projects/project-settings.ts';
import { deviceZone, nextLocalTime } from '../targets/local-clock.ts';
import { fanOutCursor, type FanOutTargets } from './batch-fan-out.ts';
import { claimSending, type SendDeps } from './send-claim.ts';
import { experimentGroup } from '../experiments/experiment-groups.ts';

/**
 * Devices gathered for one part of a local-time send before it is queued. A few thousand, so that 100,000 devices over
 * 24 zones make a few dozen parts, while the fan-out holds at most this many devices per instant and gateway.
 */
export const zonePartSize = 2500;

type LocalTimeTargets = FanOutTargets & { localTime: string; sendAt?: Date | null; createdAt: Date };

/** The devices waiting for one instant, of one gateway (and in an experiment one variant), not yet queued. */
interface Bucket {
  instant: number;
  gateway: GatewayName;
  variant?: string;
  group?: string;
  /** The device streamed before its first: while it holds devices, a resumed fan-out starts there. */
  startAfter: string | null;
  devices: TargetDevice[];
}

const bucketKey = (instant: number, gateway: GatewayName, group?: string) =>
  `${instant}-${gateway}${group === undefined ? '' : `-${group}`}`;

/** The send's zones so far, as its notification shows them: each instant and the devices queued for it. */
function zoneSizes(buckets: Record<string, QueuedZoneParts>): { at: number; devices: number }[] {
  const sizes = new Map<number, number>();
  for (const [key, { devices }] of Object.entries(buckets)) {
    const at = Number(key.slice(0, key.indexOf('-')));
    sizes.set(at, (sizes.get(at) ?? 0) + devices);
  }
  return [...sizes].sort(([a], [b]) => a - b).map(([at, devices]) => ({ at, devices }));
}

/**
 * A local-time send (CONTRACTS §15): as the audience streams by, each device goes into the bucket of the instant its
 * local time comes round (its zone's, else the project's default) and its gateway; a bucket is queued as one delayed
 * part when it holds zonePartSize devices, and what is left when the stream ends. The parts are children of the send
 * job, which waits for them all; cancelation removes them with it.
 */
export async function fanOutByLocalTime(
  deps: SendDeps,
  segments: SegmentResolver,
  job: Job<SendJobData>,
  targets: LocalTimeTargets,
  projection: TargetProjection,
  start: FanOutProgress,
): Promise<void> {
  const settings = await readProjectSettings(deps.models, targets.projectId);
  // The winner goes to the devices that waited at their local time's next occurrence after the decision (CONTRACTS §19).
  const decidedAt = targets.phase === 'winner' ? (targets.experiment?.decidedAt?.getTime() ?? 0) : 0;
  const sendFrom = Math.max((targets.sendAt ?? targets.createdAt).getTime(), decidedAt);
  const instants = new Map<string, number>();
  const instantOf = (device: TargetDevice) => {
    const zone = deviceZone(device, settings);
    let instant = instants.get(zone);
    if (instant === undefined) {
      instant = nextLocalTime(sendFrom, zone, targets.localTime);
      instants.set(zone, instant);
    }
    return instant;
  };
  const parts = new ZoneParts(deps, job, targets, start);
  const resuming = start.localTime?.queuing !== undefined;
  for await (const device of fanOutCursor(deps, segments, targets, projection, start, resuming))
    await parts.add(device, instantOf(device));
  await parts.finish();
}

/**
 * The buckets of one fan-out run and their progress, saved in the send job each time a part is queued. Each part is
 * planned (saved) first, then counted on the notification, then queued under a deterministic id, then recorded as
 * queued: a run that stops anywhere in between is followed by one that streams again from the first device not in a
 * queued part, skips those a bucket has queued, and queues the planned part again with the same devices.
 */
class ZoneParts {
  private readonly deps: SendDeps;
  private readonly job: Job<SendJobData>;
  private readonly targets: LocalTimeTargets;
  private progress: FanOutProgress;
  private readonly held = new Map<string, Bucket>();
  private lastId: string | null;

  constructor(deps: SendDeps, job: Job<SendJobData>, targets: LocalTimeTargets, progress: FanOutProgress) {
    this.deps = deps;
    this.job = job;
    this.targets = targets;
    this.progress = progress;
    this.lastId = progress.afterId;
  }

  private get saved(): LocalTimeProgress {
    return this.progress.localTime ?? { buckets: {} };
  }

  async add(device: TargetDevice, instant: number): Promise<void> {
    const planned = this.saved.queuing;
    if (planned && device._id > planned.untilId) await this.queue(planned);
    const gateway = gatewayForDevice(device);
    const { variant } = device;
    const group =
      variant === undefined ? undefined : experimentGroup(this.targets, this.targets.phase ?? 'test', variant);
    const key = bucketKey(instant, gateway, group);
    const queued = this.saved.buckets[key];
    let full: Bucket | undefined;
    if (!queued || device._id > queued.untilId) {
      const bucket = this.held.get(key) ?? { instant, gateway, variant, group, startAfter: this.lastId, devices: [] };
      bucket.devices.push(device);
      this.held.set(key, bucket);
      if (bucket.devices.length >= zonePartSize) full = bucket;
    }
    this.lastId = device._id;
    // While a planned part waits to be queued again, the buckets grow past their size: only one part is planned at a time.
    if (full && !this.saved.queuing) await this.queue(this.plan(full));
  }

  async finish(): Promise<void> {
    const planned = this.saved.queuing;
    if (planned) await this.queue(planned);
    for (const bucket of [...this.held.values()]) await this.queue(this.plan(bucket));
    await this.job.updateData({ ...this.job.data, progress: { ...this.progress, finished: true } });
  }

  private plan({ instant, gateway, variant, group, devices }: Bucket): ZonePartPlan {
    return { instant, gateway, ...(group !== undefined && { variant, group }), untilId: devices.at(-1)!._id };
  }

  private async queue(plan: ZonePartPlan): Promise<void> {
    const { instant, gateway, variant, group, untilId } = plan;
    const key = bucketKey(instant, gateway, group);
    const devices = (this.held.get(key)?.devices ?? []).map(({ _id, ...device }) => device);
    const replanned = this.saved.queuing !== undefined;
    if (!replanned) await this.save({ ...this.progress, localTime: { ...this.saved, queuing: plan } });
    const { _id: notificationId, projectId } = this.targets;
    const before = this.saved.buckets[key];
    const jobId = zonePartJobId(notificationId, instant, gateway, before?.parts ?? 0, group);
    // A part an interrupted run queued keeps the devices it was queued with: counted as it stands.
    const queuedBefore = replanned ? await this.deps.queues.deliver.getJob(jobId) : undefined;
    const size = queuedBefore?.data.devices.length ?? devices.length;
    const targeted = this.progress.targeted + size;
    const buckets = {
      ...this.saved.buckets,
      [key]: { parts: (before?.parts ?? 0) + 1, untilId, devices: (before?.devices ?? 0) + size },
    };
    // Counted before the part goes, as it will stand queued: a part due now can deliver before the next write.
    const variantTargeted = { ...this.progress.variantTargeted };
    if (variant !== undefined) variantTargeted[variant] = (variantTargeted[variant] ?? 0) + size;
    const variantFields = variant !== undefined && { variantTargeted };
    // The winner's zones are kept apart from the test's, whose devices due at the same instant are still counted there.
    await claimSending(this.deps.models, notificationId, {
      'stats.targeted': targeted,
      [this.targets.phase === 'winner' ? 'winnerZones' : 'localTimeZones']: zoneSizes(buckets),
      ...variantFields,
    });
    if (devices.length > 0) {
      const batch = this.progress.batches;
      const data = { notificationId, projectId, gateway, batch, devices, ...(variant !== undefined && { variant }) };
      const part = {
        ...data,
        heldUntil: instant,
        localTimeAt: instant,
        ...(replanned && { resumedFanOut: true as const }),
      };
      const parent = { id: this.job.id!, queue: this.job.queueQualifiedName };
      await enqueueHeldParts(this.deps, parent, [{ jobId, releaseAt: instant, data: part, reason: 'local_time' }]);
    }
    this.held.delete(key);
    await this.save({
      afterId: this.resumePoint(),
      batches: this.progress.batches + 1,
      targeted,
      ...variantFields,
      finished: false,
      localTime: { buckets },
    });
  }

  /** Where a resumed fan-out streams from: before the first device still held here, else after the last one read. */
  private resumePoint(): string | null {
    let point = this.lastId;
    for (const { startAfter } of this.held.values())
      if (startAfter === null || (point !== null && startAfter < point)) point = startAfter;
    return point;
  }

  private async save(progress: FanOutProgress): Promise<void> {
    this.progress = progress;
    await this.job.updateData({ ...this.job.data, progress });
  }
}
