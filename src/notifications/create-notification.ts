import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps.ts';
import type { TemplateStore } from '../templates/template-store.ts';
import type { KeyOwner } from '../keys/key-cache.ts';
import { invalidRequest, type ErrorDetail } from '../errors.ts';
import { maxSegmentTargets, planLimits } from '../plans/plans.ts';
import { contentSyntaxErrors } from '../rendering/message-content.ts';
import { checkedContent } from './send-content.ts';
import { optionContentErrors } from '../rendering/option-content-errors.ts';
import { boundNotificationId, claimIdempotencyKey } from './idempotency.ts';
import { requestBodyDigest } from '../infra/idempotency-binding.ts';
import { enqueueSend } from '../queues/send.ts';
import { targetTypes, type SendNotificationBody, type TargetType } from '../schemas/notification.ts';
import { escapePointer, fieldsOf } from '../schemas/validation.ts';
import { reservedDataKeyProblem } from '../gateways/reserved-data-keys.ts';
import { assertTargetsExist } from './send-targets.ts';
import { parseRequestTime } from '../schemas/request-formats.ts';
import { sendTimingOf } from '../schemas/send-timing.ts';
import { experimentFields, experimentRequestErrors } from '../experiments/experiment-rules.ts';
import { makeNotifications } from './make-notifications.ts';

const maxScheduleAheadMs = 365 * 24 * 60 * 60 * 1000;

/**
 * What the schema cannot say: the plan's limit on targetIds, data keys a gateway reserves, Liquid syntax, how far ahead
 * sendAt may be. Each check reads only its own fields and skips a field of the wrong type, so it also runs on a body
 * that failed the schema and the 400 names every offending field (CONTRACTS §1).
 */
export function sendRequestErrors(plan: KeyOwner['plan'], body: unknown, now: number): ErrorDetail[] {
  const fields = fieldsOf(body);
  const { targetType, targetIds, templateId, sendAt } = fields;
  const details: ErrorDetail[] = [];
  if (Array.isArray(targetIds) && targetTypes.includes(targetType as TargetType)) {
    const maxTargets = targetType === 'segment' ? maxSegmentTargets : planLimits[plan].maxDirectTargets;
    if (new Set(targetIds).size > maxTargets) {
      details.push({
        path: '/targetIds',
        message: `allows at most ${maxTargets} ids for targetType ${String(targetType)} on the ${plan} plan`,
      });
    }
  }
  for (const key of Object.keys(fieldsOf(fields.data))) {
    const problem = reservedDataKeyProblem(key);
    if (problem) details.push({ path: `/data/${escapePointer(key)}`, message: problem });
  }
  if (templateId === undefined) details.push(...contentSyntaxErrors(fields));
  details.push(...optionContentErrors(fields), ...experimentRequestErrors(fields));
  const sendTime = typeof sendAt === 'string' ? parseRequestTime(sendAt) : null;
  if (sendTime && sendTime.getTime() - now > maxScheduleAheadMs) {
    details.push({ path: '/sendAt', message: 'must be at most 365 days ahead' });
  }
  return details;
}

type CreateDeps = Pick<Deps, 'models' | 'redis' | 'config' | 'queues' | 'renderer'> & { templates: TemplateStore };

/**
 * Stores the notification and queues its send job (makeNotifications). With an Idempotency-Key both steps are
 * repeatable under the same id, so a client retry after a timeout or a 503 answers the same id and sends nothing
 * twice; without one, a notification whose job could not be queued is withdrawn.
 */
export async function createNotification(
  deps: CreateDeps,
  owner: KeyOwner,
  body: SendNotificationBody,
  idempotencyKey: string | undefined,
): Promise<string> {
  const now = Date.now();
  const bodyDigest = requestBodyDigest(body);
  if (idempotencyKey !== undefined) {
    // A repeat answers the first id even when its template, segment or device has been deleted since (CONTRACTS §6).
    const earlier = await boundNotificationId(deps, owner.projectId, idempotencyKey, bodyDigest);
    if (earlier !== null && (await requeueIfStored(deps, earlier, now))) return earlier;
  }
  const targetIds = [...new Set(body.targetIds)];
  const details = sendRequestErrors(owner.plan, body, now);
  if (details.length > 0) throw invalidRequest('The notification is not valid; see details for each field.', details);
  const { content, options, variants } = await checkedContent(deps, owner.projectId, body);
  await assertTargetsExist(deps, owner.projectId, body, targetIds);
  const experiment = await experimentFields(deps.models, owner.projectId, body, variants);
  const candidateId = randomUUID();
  const id =
    idempotencyKey === undefined
      ? candidateId
      : await claimIdempotencyKey(deps, owner.projectId, idempotencyKey, { notificationId: candidateId, bodyDigest });
  const draft = {
    _id: id,
    projectId: owner.projectId,
    targetType: body.targetType,
    targetIds,
    templateId: body.templateId ?? null,
    content,
    options,
    data: body.data ?? {},
    sendAt: body.sendAt === undefined ? null : parseRequestTime(body.sendAt),
    timing: sendTimingOf(body),
    ...experiment,
  };
  await makeNotifications(deps, [draft], { now, withdrawUnqueued: idempotencyKey === undefined });
  return id;
}

/**
 * Whether the notification a key is bound to was stored; its send job is queued again while it is still queued (a
 * repeat before it, or repairing a lost add), and past that its job has run, so it certainly exists.
 */
async function requeueIfStored(deps: CreateDeps, id: string, now: number): Promise<boolean> {
  const stored = await deps.models.Notification.findById(id, { projectId: 1, status: 1, sendAt: 1 }).lean();
  if (!stored) return false;
  if (stored.status === 'queued') await enqueueSend(deps, stored, now);
  return true;
}
