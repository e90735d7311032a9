import { beforeAll, describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import type { Models } from '../../src/models/index.ts';
import { deviceKey } from '../../src/models/device.ts';
import { historyKey } from '../../src/models/history.ts';
import {
  deviceUserQuery,
  subjectsCountingFor,
  userDevicesQuery,
  type SubjectQuery,
} from '../../src/events/subjects.ts';
import { recentEventsQueries, type EventWindow } from '../../src/events/recent-events.ts';
import {
  countedEventsFilters,
  dailyCountersQueries,
  eventWindow,
  type CountEventsQuery,
} from '../../src/events/count-events.ts';
import { dayMs } from '../../src/infra/utc-day.ts';
import { segmentClause, subscribedDevicesFilter } from '../../src/segments/segment-filter.ts';
import {
  devicesOfUsersQuery,
  eventConditionQueries,
  eventSubjectsQuery,
} from '../../src/segments/event-condition-filter.ts';
import { segmentDevicesQuery, type TargetQuery } from '../../src/targets/segment-resolver.ts';
import { listedTargetsQueries, type Targets } from '../../src/targets/target-cursor.ts';
import type { Platform } from '../../src/schemas/platforms.ts';
import { readUserDevices } from '../../src/user-tags/apply-user-tags.ts';
import { targetProjection } from '../../src/targets/target-device.ts';
import { deviceHistoryQuery, sameTimeHistoryQuery } from '../../src/history/device-history.ts';
import { deliveredHistoryQuery } from '../../src/history/record-history.ts';
import { deliveryResultsQuery, projectNotificationQuery } from '../../src/notifications/notification-view.ts';
import { pendingJourneySendsQuery } from '../../src/journeys/cancel-journey-sends.ts';

import { listNotificationsQuery, sameTimeNotificationsQuery } from '../../src/notifications/list-notifications.ts';
import { clickCountsPipeline } from '../../src/notifications/notification-clicks.ts';
import { deviceClicksQuery } from '../../src/devices/erase-device.ts';
import { listDevicesQuery } from '../../src/devices/list-devices.ts';
import { devicesByKeyQuery } from '../../src/devices/device-reads.ts';
import type { EventCondition, SegmentCondition } from '../../src/schemas/segment.ts';
import { deliveryLogQuery, sentEntriesQuery } from '../../src/notifications/delivery-log-page.ts';
import { deliverySummaryPipeline, sentByPlatformPipeline } from '../../src/notifications/delivery-summary.ts';
import { daysSinceQuery, dailyCountKey, subscribedBeforePipeline } from '../../src/overview/daily-counts.ts';
import { newestDevicesQuery } from '../../src/devices/newest-devices.ts';
import { createdBefore } from '../../src/models/newest-first-list.ts';
import { deliveryLogKey } from '../../src/models/delivery-log.ts';
import { enabledEndpointsQuery } from '../../src/webhooks/subscribed-endpoints.ts';
import { activeMessagesQuery } from '../../src/in-app/active-messages.ts';
import { knownMessagesQuery } from '../../src/events/in-app-displays.ts';
import { inAppStatsPipeline } from '../../src/in-app/in-app-stats.ts';
import { projectDevicesQuery } from '../../src/device-files/device-export.ts';
import { recentImportsQuery } from '../../src/device-files/device-imports.ts';
import { otherLogQuery, sentLogQuery } from '../../src/notifications/delivery-log-export.ts';
import { catalogDaysQuery } from '../../src/events/event-type-counts.ts';
import { recentTagsQuery } from '../../src/devices/tag-suggestions.ts';
import { claimFilters, claimedTravellersQuery, travellersByIdQuery } from '../../src/journeys/claim-due-travellers.ts';
import { dueTravellersQuery } from '../../src/journeys/find-due.ts';
import { stepBatchFilter, type StepBatch } from '../../src/journeys/advance-travellers.ts';
import { subjectVisitsQuery } from '../../src/journeys/journey-details.ts';
import { subjectsVisitsQueries } from '../../src/journeys/travel-events.ts';
import { travellerId } from '../../src/models/journey-traveller.ts';
import type { Traveller } from '../../src/journeys/steps/step-context.ts';

/**
 * The hot queries, built by the product's own functions, must be planned on an index on the server the tests use: a
 * changed filter, sort or index declaration that silently turns one into a collection scan fails here first.
 */

const { ingress } = useIngress();

type Explain = Record<string, unknown>;

/**
 * Why SecantusDB 0.7.0b3 (the server of the tests) plans, without an index, a shape that MongoDB 7/8 serves from one. On
 * SecantusDB such a case expects the COLLSCAN instead, so that the day the server learns the shape this test says so.
 * - explainGap: explain names an index only when the index key holds every field of the filter (equalities on a
 *   prefix, then at most one operator on the next field). The query itself does use an index for one of its fields
 *   (projectId or _id), so explain under-reports; the product's shape is right for MongoDB and is kept.
 * - topLevelOperator: a filter with a top-level $or or $and is answered by a real collection scan.
 * - wildcard: a wildcard index is built as a plain index on the literal field "tags.$**", and never used.
 */
type SecantusLimitation = 'explainGap' | 'topLevelOperator' | 'wildcard';

interface HotQuery {
  name: string;
  /** One explain, or one per query of a read made of several (each subject branch of an event read). */
  explain(): Promise<Explain | Explain[]>;
  /** The index MongoDB 7/8 uses (each of them, for a plan over several). */
  index: string | string[];
  secantus?: SecantusLimitation;
}

const projectIds = ['qp-a', 'qp-b', 'qp-c', 'qp-d'];
// Not the first project: a scan from the start of the collection would meet other projects' documents first.
const projectId = 'qp-c';
const now = new Date();
const deps = () => ingress.context;
const models = (): Models => ingress.context.models;

const devicesPerProject = 300;
/** d000 to d199 belong to u0 to u99, two each; d200 and later have no user. */
const deviceIdOf = (index: number) => `d${String(index).padStart(3, '0')}`;
const userOf = (index: number) => (index < 200 ? `u${index % 100}` : null);
const eventTypes = ['purchase', 'open', 'level_up'];

async function seed(models: Models): Promise<void> {
  for (const project of projectIds) {
    await models.Device.insertMany(
      Array.from({ length: devicesPerProject }, (_, index) => ({
        _id: deviceKey(project, deviceIdOf(index)),
        projectId: project,
        deviceId: deviceIdOf(index),
        platform: (['android', 'ios', 'web'] as const)[index % 3],
        pushToken: `token-${project}-${index}`,
        userId: userOf(index),
        tags: {
          plan: ['pro', 'free', 'basic'][index % 3],
          score: index % 100,
          ...(index % 7 === 0 && { country: 'fr' }),
        },
        isSubscribed: index % 10 !== 9,
      })),
    );
    await models.Event.insertMany(
      Array.from({ length: 400 }, (_, index) => {
        const byDevice = index % 2 === 0;
        return {
          _id: `${project}-job${Math.floor(index / 10)}:${String(index % 10).padStart(3, '0')}`,
          projectId: project,
          type: eventTypes[index % eventTypes.length],
          subjectType: byDevice ? 'device' : 'user',
          subjectId: byDevice ? deviceIdOf(index % devicesPerProject) : `u${index % 100}`,
          data: { amount: index % 250 },
          receivedAt: new Date(now.getTime() - ((index % 40) * dayMs) / 4 - index * 1000),
        };
      }),
    );
    await models.EventTypeDay.insertMany(
      Array.from({ length: 120 }, (_, index) => {
        const day = new Date(Math.floor(now.getTime() / dayMs) * dayMs - (index % 40) * dayMs);
        const type = eventTypes[index % eventTypes.length]!;
        return { _id: JSON.stringify([project, type, day.getTime()]), projectId: project, type, day, count: index };
      }),
    );
    await models.EventCounter.insertMany(
      Array.from({ length: 400 }, (_, index) => {
        const counter = {
          projectId: project,
          subjectType: index % 2 === 0 ? 'device' : 'user',
          subjectId: index % 2 === 0 ? deviceIdOf(index % devicesPerProject) : `u${index % 100}`,
          type: eventTypes[index % eventTypes.length]!,
          day: new Date(Math.floor(now.getTime() / dayMs - (index % 30)) * dayMs),
          count: 1 + (index % 4),
          flush: 1 + Math.floor(index / 100),
        };
        return {
          _id: JSON.stringify([
            project,
            counter.flush,
            counter.subjectType,
            counter.subjectId,
            counter.type,
            counter.day.getTime(),
            index,
          ]),
          ...counter,
        };
      }),
    );
    await models.History.insertMany(
      Array.from({ length: 300 }, (_, index) => {
        const notificationId = `${project}-n${index % 10}`;
        const deviceId = deviceIdOf(Math.floor(index / 10));
        return {
          _id: historyKey(notificationId, deviceId),
          projectId: project,
          deviceId,
          notificationId,
          notification: { id: notificationId, createdAt: now, title: 'Hello', body: 'World' },
          sentAt: new Date(now.getTime() - (index % 40) * dayMs),
        };
      }),
    );
    await models.Notification.insertMany(
      Array.from({ length: 100 }, (_, index) => ({
        _id: `${project}-n${index}`,
        projectId: project,
        status: index % 4 === 0 ? 'queued' : 'completed',
        targetType: 'device',
        targetIds: [deviceIdOf(index)],
        body: 'World',
        journeyId: index % 2 === 0 ? `${project}-j${index % 5}` : null,
      })),
    );
    await models.DeliveryResult.insertMany(
      Array.from({ length: 300 }, (_, index) => ({
        _id: `${project}-n${index % 100}:${Math.floor(index / 100)}`,
        notificationId: `${project}-n${index % 100}`,
        sent: 1,
      })),
    );
    const travellerStates = ['due', 'running', 'held', 'done'] as const;
    await models.JourneyTraveller.insertMany(
      Array.from({ length: 300 }, (_, index) => {
        const journeyId = `${project}-j${index % 5}`;
        const subjectId = deviceIdOf(index % devicesPerProject);
        const visit = 1 + Math.floor(index / 100);
        const state = travellerStates[index % 4]!;
        return {
          _id: travellerId(journeyId, 'device', subjectId, visit),
          projectId: project,
          journeyId,
          version: 1,
          subjectType: 'device',
          subjectId,
          visit,
          entryEvent: { type: 'purchase', data: {} },
          entryEventId: `${project}-job0:${index}`,
          enteredAt: now,
          state,
          at: state === 'done' ? null : `s${index % 3}`,
          dueAt: state === 'done' ? null : new Date(now.getTime() + (index - 150) * 60_000),
          claim: state === 'running' ? `${project}-claim${index % 3}` : null,
          runId: state === 'running' ? `${project}-claim${index % 3}` : null,
        };
      }),
    );
    // 90 days of counts, and the baseline.
    await models.DailyCount.insertMany(
      Array.from({ length: 91 }, (_, index) => {
        const day = index === 90 ? new Date(0) : new Date(Math.floor(now.getTime() / dayMs - index) * dayMs);
        return { _id: dailyCountKey(project, day), projectId: project, day, sent: 10, clicked: 1, subscribed: 2 };
      }),
    );
  }
}

/** Mongoose answers the explain document for a query with the explain option. */
const explainQuery = async (query: { explain(verbosity: 'queryPlanner'): unknown }): Promise<Explain> =>
  await (query.explain('queryPlanner') as PromiseLike<Explain>);

/** countDocuments is this aggregate on the wire (mongodb/lib/collection.js), which is what gets planned. */
const explainCount = (model: Models['Event'] | Models['Device'], filter: object) =>
  explainQuery(model.aggregate([{ $match: filter }, { $group: { _id: 1, n: { $sum: 1 } } }]));

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The winning plan of every planned part: find's queryPlanner, an aggregate's $cursor stage or a pipeline pushed
 * down whole (MongoDB's SBE), each shard's; never the rejected plans.
 */
function winningPlans(node: unknown): unknown[] {
  if (Array.isArray(node)) return node.flatMap(winningPlans);
  if (!isObject(node)) return [];
  return Object.entries(node).flatMap(([key, value]) => {
    if (key === 'rejectedPlans') return [];
    if (key === 'winningPlan') return [value];
    return winningPlans(value);
  });
}

const childKeys = [
  'inputStage',
  'inputStages',
  'queryPlan',
  'thenStage',
  'elseStage',
  'outerStage',
  'innerStage',
  'shards',
];

interface PlanUse {
  stages: string[];
  indexes: string[];
}

/** Every stage of the plan trees, and every index they read; MongoDB's IDHACK reads _id_ without naming it. */
function planUse(explain: Explain | Explain[]): PlanUse {
  const use: PlanUse = { stages: [], indexes: [] };
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    if (!isObject(node)) return;
    if (typeof node.stage === 'string') use.stages.push(node.stage);
    if (typeof node.indexName === 'string') use.indexes.push(node.indexName);
    else if (node.stage === 'IDHACK') use.indexes.push('_id_');
    for (const key of childKeys) walk(node[key]);
  };
  winningPlans(explain).forEach(walk);
  return use;
}

const eventIndexes = {
  project: 'projectId_1_receivedAt_-1__id_-1',
  type: 'projectId_1_type_1_receivedAt_-1__id_-1',
  subject: 'projectId_1_subjectType_1_subjectId_1_receivedAt_-1__id_-1',
  subjectType: 'projectId_1_subjectType_1_subjectId_1_type_1_receivedAt_-1__id_-1',
};
const deviceTags = 'projectId_1_tags.$**_1';
const userDevices = 'projectId_1_userId_1_platform_1';
const fanOut: TargetQuery = { afterId: null, projection: targetProjection('all') };

async function segmentFilter(match: 'all' | 'any', conditions: SegmentCondition[]): Promise<object> {
  return subscribedDevicesFilter(projectId, [await segmentClause(deps(), { projectId, match, conditions })]);
}

const purchases: EventCondition = { event: 'purchase', withinDays: 30, count: { op: 'gte', value: 1 } };
const bigPurchases: EventCondition = { ...purchases, where: [{ field: 'amount', op: 'gte', value: 100 }] };

function countQuery(subject: SubjectQuery, condition: EventCondition): CountEventsQuery {
  return {
    projectId,
    ...subject,
    type: condition.event,
    withinDays: condition.withinDays,
    where: condition.where,
    now,
  };
}

/** The filters countEvents counts for the subject, with the subjects it resolves the way it resolves them. */
async function countedEvents(subject: SubjectQuery, condition: EventCondition) {
  const query = countQuery(subject, condition);
  const subjects = await subjectsCountingFor(models(), projectId, query);
  return { query, subjects, filters: countedEventsFilters(query, subjects, eventWindow(query.withinDays, now)) };
}

async function recentEventsOf(subject: SubjectQuery | null, type?: string, window?: EventWindow): Promise<Explain[]> {
  const subjects = subject === null ? null : await subjectsCountingFor(models(), projectId, subject);
  expect(subjects).not.toEqual([]);
  return Promise.all(recentEventsQueries(models(), projectId, subjects, { type, limit: 50 }, window).map(explainQuery));
}

/** Where the next page of events starts: the rest of the last one's millisecond, then what is older. */
const nextEventsPage: EventWindow[] = [
  { receivedAt: new Date(now), _id: { $lt: 'e0500' } },
  { receivedAt: { $lt: new Date(now) } },
];

/** The plans of the queries a send to users or devices reads, built as the fan-out builds them. */
const listedTargetsPlans = (targets: Omit<Targets, 'projectId'>, platforms?: Platform[]) =>
  Promise.all(
    listedTargetsQueries(models(), { projectId, ...targets }, { ...fanOut, ...(platforms && { platforms }) }).map(
      explainQuery,
    ),
  );

const explainCounts = (filters: object[]) => Promise.all(filters.map((filter) => explainCount(models().Event, filter)));

const hotQueries: HotQuery[] = [
  // Devices
  {
    name: 'a device by id (DeviceReads, one read alone)',
    explain: () => explainQuery(devicesByKeyQuery(models(), [deviceKey(projectId, 'd007')])),
    index: '_id_',
  },
  {
    name: 'devices by id (DeviceReads, the reads gathered while a query was out)',
    explain: () =>
      explainQuery(
        devicesByKeyQuery(
          models(),
          ['d007', 'd008', 'd009'].map((id) => deviceKey(projectId, id)),
        ),
      ),
    index: '_id_',
  },
  {
    name: 'the user of a device (subjectsCountingFor)',
    explain: () => explainQuery(deviceUserQuery(models(), projectId, 'd007')),
    index: '_id_',
  },
  {
    name: 'the devices of a user (subjectsCountingFor)',
    explain: () => explainQuery(userDevicesQuery(models(), projectId, 'u7')),
    index: userDevices,
  },
  {
    name: 'the devices of a user with their tags (user tag updates)',
    explain: () => explainQuery(readUserDevices(models(), { projectId, userId: 'u7' })),
    index: userDevices,
  },
  {
    // Resumed or not, the query is the same: the resume point is checked as the devices stream by.
    name: 'a send to users: the fan-out cursor',
    explain: () => listedTargetsPlans({ targetType: 'userId', targetIds: ['u7', 'u8', 'u9'] }),
    index: userDevices,
  },
  {
    name: 'a send to devices: the fan-out cursor',
    explain: () => listedTargetsPlans({ targetType: 'device', targetIds: ['d007', 'd008'] }),
    index: '_id_',
  },
  {
    name: "a journey push step's send to 250 devices: three $ins of at most 100 ids",
    explain: async () => {
      const targetIds = Array.from({ length: 250 }, (_, index) => `d${String(index).padStart(3, '0')}`);
      const plans = await listedTargetsPlans({ targetType: 'device', targetIds });
      expect(plans).toHaveLength(3);
      return plans;
    },
    index: '_id_',
  },
  // CONTRACTS §14: platforms (and silent, which leaves out web) narrow every target query itself.
  {
    name: 'a send to users for some platforms: a query per user',
    explain: () => listedTargetsPlans({ targetType: 'userId', targetIds: ['u7', 'u8', 'u9'] }, ['android', 'ios']),
    index: userDevices,
  },
  {
    name: 'a send to one user for one platform',
    explain: () => listedTargetsPlans({ targetType: 'userId', targetIds: ['u7'] }, ['ios']),
    index: userDevices,
  },
  {
    name: 'a send to devices for some platforms',
    explain: () => listedTargetsPlans({ targetType: 'device', targetIds: ['d007', 'd008'] }, ['android', 'ios']),
    index: '_id_',
    secantus: 'explainGap',
  },
  // CONTRACTS §14: platforms (and silent) narrow a segment's target query itself.
  {
    name: 'segment tag plan eq pro for some platforms: the fan-out cursor in _id order',
    explain: async () =>
      explainQuery(
        segmentDevicesQuery(models(), await segmentFilter('all', [{ tag: 'plan', op: 'eq', value: 'pro' }]), {
          ...fanOut,
          platforms: ['ios'],
        }),
      ),
    index: deviceTags,
    secantus: 'wildcard',
  },
  {
    name: 'segment event condition for some platforms: the fan-out cursor over the devices listed',
    explain: async () =>
      explainQuery(
        segmentDevicesQuery(models(), await segmentFilter('all', [purchases]), { ...fanOut, platforms: ['ios'] }),
      ),
    index: '_id_',
    secantus: 'explainGap',
  },
  // Segments: tag conditions
  {
    name: 'segment tag plan eq pro: the fan-out cursor in _id order',
    explain: async () =>
      explainQuery(
        segmentDevicesQuery(models(), await segmentFilter('all', [{ tag: 'plan', op: 'eq', value: 'pro' }]), fanOut),
      ),
    index: deviceTags,
    secantus: 'wildcard',
  },
  {
    name: 'segment tag score gte 50: the fan-out cursor in _id order',
    explain: async () =>
      explainQuery(
        segmentDevicesQuery(models(), await segmentFilter('all', [{ tag: 'score', op: 'gte', value: 50 }]), fanOut),
      ),
    index: deviceTags,
    secantus: 'wildcard',
  },
  {
    name: 'segment tag plan eq pro: the preview count',
    explain: async () =>
      explainCount(models().Device, await segmentFilter('all', [{ tag: 'plan', op: 'eq', value: 'pro' }])),
    index: deviceTags,
    secantus: 'wildcard',
  },
  {
    name: 'segment plan eq pro and score gte 50: the fan-out cursor',
    explain: async () =>
      explainQuery(
        segmentDevicesQuery(
          models(),
          await segmentFilter('all', [
            { tag: 'plan', op: 'eq', value: 'pro' },
            { tag: 'score', op: 'gte', value: 50 },
          ]),
          fanOut,
        ),
      ),
    index: deviceTags,
    secantus: 'topLevelOperator',
  },
  {
    name: 'segment plan eq pro or score gte 50: the fan-out cursor',
    explain: async () =>
      explainQuery(
        segmentDevicesQuery(
          models(),
          await segmentFilter('any', [
            { tag: 'plan', op: 'eq', value: 'pro' },
            { tag: 'score', op: 'gte', value: 50 },
          ]),
          fanOut,
        ),
      ),
    index: deviceTags,
    secantus: 'topLevelOperator',
  },
  {
    name: 'segment plan eq pro: the fan-out cursor resumed after an _id',
    explain: async () =>
      explainQuery(
        segmentDevicesQuery(models(), await segmentFilter('all', [{ tag: 'plan', op: 'eq', value: 'pro' }]), {
          ...fanOut,
          afterId: deviceKey(projectId, 'd150'),
        }),
      ),
    // Either bounds the scan by the project: the tag's values, or the rest of the project's _id range.
    index: [deviceTags, '_id_'],
    secantus: 'topLevelOperator',
  },
  // Segments: event conditions
  {
    name: 'segment event condition: whole days from the daily counters ($match of the $group)',
    explain: () =>
      explainQuery(models().EventCounter.aggregate(eventConditionQueries(projectId, purchases, now).counters!)),
    index: 'projectId_1_type_1_day_-1',
  },
  {
    name: 'segment event condition: the events of the first partial day',
    explain: () =>
      explainQuery(eventSubjectsQuery(models(), eventConditionQueries(projectId, purchases, now).events[0]!)),
    index: eventIndexes.type,
  },
  {
    name: 'segment event condition: the events of today',
    explain: () =>
      explainQuery(eventSubjectsQuery(models(), eventConditionQueries(projectId, purchases, now).events[1]!)),
    index: eventIndexes.type,
  },
  {
    name: 'segment event condition with data conditions: the events of the window',
    explain: () =>
      explainQuery(eventSubjectsQuery(models(), eventConditionQueries(projectId, bigPurchases, now).events[0]!)),
    index: eventIndexes.type,
    secantus: 'explainGap',
  },
  {
    name: 'segment event condition: the devices of the users counted',
    explain: () => explainQuery(devicesOfUsersQuery(models(), projectId, ['u1', 'u3', 'u5'])),
    index: userDevices,
  },
  {
    name: 'segment event condition: the fan-out cursor over the devices listed',
    explain: async () => explainQuery(segmentDevicesQuery(models(), await segmentFilter('all', [purchases]), fanOut)),
    index: '_id_',
    secantus: 'explainGap',
  },
  {
    name: 'the devices of a user (GET /devices?userId=)',
    explain: () => explainQuery(listDevicesQuery(models(), projectId, { userId: 'u7', limit: 50 })),
    index: userDevices,
  },
  {
    name: 'the devices of a user, next page',
    explain: () => explainQuery(listDevicesQuery(models(), projectId, { userId: 'u7', limit: 50, after: 'd007' })),
    index: userDevices,
    secantus: 'explainGap',
  },
  {
    name: 'the devices whose id starts with a prefix (GET /devices?idPrefix=, the console picker)',
    explain: () => explainQuery(listDevicesQuery(models(), projectId, { idPrefix: 'd01', limit: 10 })),
    index: '_id_',
    secantus: 'explainGap',
  },
  {
    name: 'the devices with a tag value (GET /devices?tag=&value=)',
    explain: () => explainQuery(listDevicesQuery(models(), projectId, { tag: 'plan', value: 'pro', limit: 50 })),
    index: deviceTags,
    secantus: 'wildcard',
  },
  {
    name: 'the clicks of a device (its erasure)',
    explain: () => explainQuery(deviceClicksQuery(models(), 'd003')),
    index: 'deviceId_1',
  },
  // History
  {
    name: 'the history of a device',
    explain: () => explainQuery(deviceHistoryQuery(models(), projectId, 'd003', { limit: 100 }, now)),
    index: 'projectId_1_deviceId_1_sentAt_-1__id_-1',
  },
  {
    name: 'the history of a device, next page',
    explain: () =>
      explainQuery(
        deviceHistoryQuery(
          models(),
          projectId,
          'd003',
          { limit: 100, before: new Date(now.getTime() - 5 * dayMs) },
          now,
        ),
      ),
    index: 'projectId_1_deviceId_1_sentAt_-1__id_-1',
  },
  {
    name: 'the history of a device, the rest of the millisecond a page ended in',
    explain: () =>
      explainQuery(
        sameTimeHistoryQuery(
          models(),
          projectId,
          'd003',
          { sentAt: new Date(now.getTime() - 5 * dayMs), key: historyKey('n-5', 'd003') },
          100,
        ),
      ),
    index: 'projectId_1_deviceId_1_sentAt_-1__id_-1',
  },
  {
    name: 'the devices of a delivery batch already delivered',
    explain: () => explainQuery(deliveredHistoryQuery(models(), `${projectId}-n3`, ['d001', 'd002', 'd003', 'd250'])),
    index: '_id_',
  },
  // Recent events
  {
    name: 'recent events of the project',
    explain: () => recentEventsOf(null),
    index: eventIndexes.project,
  },
  {
    name: 'recent events of a type',
    explain: () => recentEventsOf(null, 'purchase'),
    index: eventIndexes.type,
  },
  {
    name: 'recent events of a device without a user',
    explain: () => recentEventsOf({ deviceId: 'd250' }),
    index: eventIndexes.subject,
  },
  {
    name: 'recent events of a device without a user, of a type',
    explain: () => recentEventsOf({ deviceId: 'd250' }, 'purchase'),
    index: eventIndexes.subjectType,
  },
  {
    name: 'recent events of a device and of its user',
    explain: () => recentEventsOf({ deviceId: 'd007' }),
    // Each $or branch is planned alone, where both subject indexes bound the scan alike.
    index: [eventIndexes.subject, eventIndexes.subjectType],
  },
  {
    name: 'recent events of a user and of their devices',
    explain: () => recentEventsOf({ userId: 'u7' }),
    index: [eventIndexes.subject, eventIndexes.subjectType],
  },
  {
    name: 'recent events of a user and of their devices, of a type',
    explain: () => recentEventsOf({ userId: 'u7' }, 'purchase'),
    index: eventIndexes.subjectType,
  },
  ...nextEventsPage.map((window, index) => ({
    name: `recent events of a user and of their devices, next page (${index === 0 ? 'the same millisecond' : 'older'})`,
    explain: () => recentEventsOf({ userId: 'u7' }, undefined, window),
    index: [eventIndexes.subject, eventIndexes.subjectType],
  })),
  ...nextEventsPage.map((window, index) => ({
    name: `recent events of the project, next page (${index === 0 ? 'the same millisecond' : 'older'})`,
    explain: () => recentEventsOf(null, undefined, window),
    index: eventIndexes.project,
  })),
  // Event counts
  {
    name: 'event count of a device without a user: the first partial day',
    explain: async () => {
      const { filters } = await countedEvents({ deviceId: 'd250' }, purchases);
      if (!('head' in filters)) throw new Error('expected the partial days');
      return explainCounts(filters.head);
    },
    index: eventIndexes.subjectType,
  },
  {
    name: 'event count of a device without a user: the whole days from the daily counters',
    explain: async () => {
      const { query, subjects } = await countedEvents({ deviceId: 'd250' }, purchases);
      const window = eventWindow(query.withinDays, now);
      return Promise.all(
        dailyCountersQueries(models(), query, subjects, window.firstWholeDay, window.today).map(explainQuery),
      );
    },
    index: 'projectId_1_subjectType_1_subjectId_1_type_1_day_-1',
  },
  {
    name: 'event count of a device without a user, with data conditions',
    explain: async () => {
      const { filters } = await countedEvents({ deviceId: 'd250' }, bigPurchases);
      if (!('matching' in filters)) throw new Error('expected the whole window');
      return explainCounts(filters.matching);
    },
    index: eventIndexes.subjectType,
    secantus: 'explainGap',
  },
  {
    name: 'event count of a user and of their devices: today',
    explain: async () => {
      const { filters } = await countedEvents({ userId: 'u7' }, purchases);
      if (!('tail' in filters)) throw new Error('expected the partial days');
      return explainCounts(filters.tail);
    },
    index: eventIndexes.subjectType,
  },
  {
    name: 'event count of a user and of their devices: the whole days from the daily counters',
    explain: async () => {
      const { query, subjects } = await countedEvents({ userId: 'u7' }, purchases);
      const window = eventWindow(query.withinDays, now);
      return Promise.all(
        dailyCountersQueries(models(), query, subjects, window.firstWholeDay, window.today).map(explainQuery),
      );
    },
    index: 'projectId_1_subjectType_1_subjectId_1_type_1_day_-1',
  },
  // Notifications and journeys
  {
    name: 'a notification of the project (GET /notifications/:id)',
    explain: () => explainQuery(projectNotificationQuery(models(), projectId, `${projectId}-n3`)),
    index: '_id_',
    secantus: 'explainGap',
  },
  {
    name: 'the delivery results of a page of notifications (their stats)',
    explain: () => explainQuery(deliveryResultsQuery(models(), [`${projectId}-n3`, `${projectId}-n4`])),
    index: 'notificationId_1',
  },
  {
    name: 'the notifications of the project, newest first (GET /notifications)',
    explain: () => explainQuery(listNotificationsQuery(models(), projectId, { limit: 20 })),
    index: 'projectId_1_journeyStepId_1_createdAt_-1__id_-1',
  },
  {
    name: 'the notifications of the project, next page',
    explain: () => explainQuery(listNotificationsQuery(models(), projectId, { limit: 20, before: now })),
    index: 'projectId_1_journeyStepId_1_createdAt_-1__id_-1',
  },
  {
    name: 'the notifications of the project, next page: those created in the same millisecond as the last one seen',
    explain: () =>
      explainQuery(sameTimeNotificationsQuery(models(), projectId, { createdAt: now, id: `${projectId}-n3` }, 20)),
    index: 'projectId_1_journeyStepId_1_createdAt_-1__id_-1',
  },
  {
    name: 'the devices that clicked each notification of a page (stats.clicked)',
    explain: () =>
      explainQuery(models().NotificationClick.aggregate(clickCountsPipeline([`${projectId}-n3`, `${projectId}-n4`]))),
    index: 'notificationId_1',
  },
  {
    name: 'the pending sends of a journey',
    explain: () => explainQuery(pendingJourneySendsQuery(models(), `${projectId}-j2`)),
    index: 'journeyId_1_status_1',
  },
  // Journey travellers: the step runner's claims and moves, an event's matching read, the traveller lookup
  {
    name: 'the oldest due journey steps (a claim of the step runner)',
    explain: () => explainQuery(dueTravellersQuery(models(), 'due', now, 500)),
    index: 'state_1_dueAt_1__id_1',
  },
  {
    name: 'the oldest due journey steps from the earliest time a waitForEvent timeout waits from (read past them)',
    explain: () => explainQuery(dueTravellersQuery(models(), 'due', now, 500, new Date(now.getTime() - 60_000))),
    index: 'state_1_dueAt_1__id_1',
  },
  {
    name: 'the oldest journey steps whose claim lapsed',
    explain: () => explainQuery(dueTravellersQuery(models(), 'running', now, 500)),
    index: 'state_1_dueAt_1__id_1',
  },
  {
    name: "a claim's due journey steps read back by their ids",
    explain: () =>
      explainQuery(
        travellersByIdQuery(
          models(),
          [5, 9].map((index) => travellerId(`${projectId}-j1`, 'device', deviceIdOf(index), 1)),
        ),
      ),
    index: '_id_',
  },
  {
    name: "a lapsed claim's journey steps taken over whole",
    explain: () =>
      explainQuery(
        models().JourneyTraveller.find(
          claimFilters(
            [{ state: 'running', dueAt: now, _id: 'x', seq: 0, claim: `${projectId}-claim1`, projectId }],
            now,
          )[0]!,
        ),
      ),
    index: 'claim_1',
    secantus: 'explainGap',
  },
  {
    name: "a claim's travellers, read back",
    explain: () => explainQuery(claimedTravellersQuery(models(), `${projectId}-claim1`)),
    index: 'claim_1',
  },
  {
    name: "a step's batch moved on: all of the claim's travellers at the step, those of one result, or those claimed in Redis",
    explain: () => {
      const batch: StepBatch = {
        claim: `${projectId}-claim1`,
        stepId: 's1',
        travellers: [
          { journeyId: `${projectId}-j1`, version: 1, runId: `${projectId}-claim1`, state: 'running' } as Traveller,
        ],
        now,
        lease: now,
        move: `${projectId}-move1`,
      };
      const claimedInRedis = { ...batch, travellers: [{ ...batch.travellers[0]!, state: 'due' as const }] };
      return Promise.all(
        [
          stepBatchFilter(batch, null, 0),
          stepBatchFilter(batch, ['a', 'b'], 0),
          stepBatchFilter(claimedInRedis, ['a'], 0),
        ].map((filter) => explainQuery(models().JourneyTraveller.find(filter))),
      );
    },
    index: ['claim_1', '_id_'],
    secantus: 'explainGap',
  },
  {
    name: "the journey visits of an ingest job's subjects (the one read of events that journey rules name)",
    explain: () =>
      Promise.all(
        subjectsVisitsQueries(models(), projectId, [
          { subjectType: 'device', subjectId: deviceIdOf(7) },
          { subjectType: 'user', subjectId: 'u7' },
          { subjectType: 'device', subjectId: deviceIdOf(8) },
        ]).map(explainQuery),
      ),
    index: 'projectId_1_subjectType_1_subjectId_1_journeyId_1_visit_-1',
  },
  {
    name: "a subject's visits of a journey (the traveller lookup)",
    explain: () => explainQuery(subjectVisitsQuery(models(), projectId, `${projectId}-j2`, 'device', deviceIdOf(7))),
    index: 'projectId_1_subjectType_1_subjectId_1_journeyId_1_visit_-1',
  },
  // Webhooks and the delivery log
  {
    name: "a page of a notification's delivery log (GET /notifications/:id/deliveries)",
    explain: () => explainQuery(deliveryLogQuery(models(), `${projectId}-n3`, { limit: 50, after: deviceIdOf(7) })),
    index: 'notificationId_1__id_1',
  },
  {
    name: "the sent entries of a page of a notification's delivery log (its history)",
    explain: () => explainQuery(sentEntriesQuery(models(), `${projectId}-n3`, { limit: 50, after: deviceIdOf(7) })),
    index: 'notificationId_1__id_1',
  },
  {
    name: "a notification's sent pushes by platform (its console page)",
    explain: () => explainQuery(models().History.aggregate(sentByPlatformPipeline(`${projectId}-n3`))),
    index: 'notificationId_1__id_1',
  },
  {
    name: "a page of a notification's delivery log with one outcome",
    explain: () =>
      explainQuery(deliveryLogQuery(models(), `${projectId}-n3`, { limit: 50, outcome: 'failed', after: 'd007' })),
    index: 'notificationId_1_outcome_1__id_1',
  },
  {
    name: "a notification's outcomes by platform and reason (its console page)",
    explain: () => explainQuery(models().DeliveryLog.aggregate(deliverySummaryPipeline(`${projectId}-n3`))),
    index: ['notificationId_1__id_1', 'notificationId_1_outcome_1__id_1'],
  },
  {
    name: "a notification's whole delivery log as CSV: its sent entries",
    explain: () => explainQuery(sentLogQuery(models(), `${projectId}-n3`)),
    index: 'notificationId_1__id_1',
  },
  {
    name: "a notification's whole delivery log as CSV: its other entries of one outcome",
    explain: () => explainQuery(otherLogQuery(models(), `${projectId}-n3`, 'failed')),
    index: 'notificationId_1_outcome_1__id_1',
  },
  {
    name: 'every device of the project in _id order (GET /devices/export)',
    explain: () => explainQuery(projectDevicesQuery(models(), projectId)),
    index: '_id_',
    secantus: 'explainGap',
  },
  {
    name: "the project's latest device imports",
    explain: () => explainQuery(recentImportsQuery(models(), projectId)),
    index: 'projectId_1_createdAt_-1',
  },
  {
    name: "the project's newest web devices still subscribed (the console's browse)",
    explain: () =>
      explainQuery(
        newestDevicesQuery(models(), createdBefore(projectId, now), { platform: 'web', subscribed: true }, 50),
      ),
    index: 'projectId_1_createdAt_-1__id_-1',
    secantus: 'explainGap',
  },
  {
    name: "the tags of the project's newest devices (the console's tag suggestions)",
    explain: () => explainQuery(recentTagsQuery(models(), projectId)),
    index: 'projectId_1_createdAt_-1__id_-1',
  },
  {
    name: "the project's daily counts of the last 30 days (the overview)",
    explain: () => explainQuery(daysSinceQuery(models(), projectId, new Date(now.getTime() - 30 * dayMs))),
    index: 'projectId_1_day_-1',
  },
  {
    name: "the project's events per type and day of the last 30 days (the event catalog's counts)",
    explain: () => explainQuery(catalogDaysQuery(models(), projectId, new Date(now.getTime() - 30 * dayMs))),
    index: 'projectId_1_day_-1',
  },
  {
    name: 'the subscribed devices before the last 30 days, summed from their daily changes (the overview)',
    explain: () =>
      explainQuery(
        models().DailyCount.aggregate(subscribedBeforePipeline(projectId, new Date(now.getTime() - 30 * dayMs))),
      ),
    index: 'projectId_1_day_-1',
  },
  {
    name: "the subscribed devices of the project now (the overview's baseline, once a project)",
    explain: () => explainCount(models().Device, { projectId, isSubscribed: true }),
    index: 'projectId_1_isSubscribed_1_unsubscribedAt_-1',
  },
  {
    name: "the project's enabled webhook endpoints (read by every event's publisher, cached briefly)",
    explain: () => explainQuery(enabledEndpointsQuery(models(), projectId)),
    index: 'projectId_1_enabled_1',
  },
  // In-app messages: the SDK route and the stats
  {
    name: 'the active in-app messages of the project, highest priority first',
    explain: () => explainQuery(activeMessagesQuery(models(), projectId)),
    index: 'projectId_1_status_1_priority_-1',
  },
  {
    name: 'the in-app messages a job of @iam_displayed names, before keeping the showings on the devices',
    explain: () => explainQuery(knownMessagesQuery(models(), [`${projectId}-iam1`, `${projectId}-iam2`])),
    index: '_id_',
  },
  {
    name: 'the stats of an in-app message (distinct devices per @iam_* event)',
    explain: () => explainQuery(models().Event.aggregate(inAppStatsPipeline(projectId, `${projectId}-iam1`))),
    index: 'projectId_1_data.inAppMessageId_1_subjectType_1_type_1_subjectId_1',
  },
];

async function seedWebhooks(models: Models): Promise<void> {
  for (const project of projectIds) {
    await models.DeliveryLog.insertMany(
      Array.from({ length: 300 }, (_, index) => {
        const notificationId = `${project}-n${index % 10}`;
        const deviceId = deviceIdOf(Math.floor(index / 10));
        return {
          _id: deliveryLogKey(notificationId, deviceId),
          notificationId,
          deviceId,
          platform: 'android',
          outcome: (['sent', 'failed', 'unsubscribed'] as const)[index % 3],
          at: now,
        };
      }),
    );
    await models.WebhookEndpoint.insertMany(
      Array.from({ length: 5 }, (_, index) => ({
        _id: `${project}-w${index}`,
        projectId: project,
        url: 'https://hooks.example/in',
        events: ['message.failed'],
        enabled: index % 2 === 0,
        secret: { iv: 'x', tag: 'x', data: 'x' },
      })),
    );
  }
}

let onSecantus = false;

beforeAll(async () => {
  await seed(ingress.context.models);
  await seedWebhooks(ingress.context.models);
  const buildInfo = await ingress.context.mongo.db!.admin().command({ buildInfo: 1 });
  onSecantus = buildInfo.secantusVersion !== undefined;
});

describe('query plans of the hot queries', () => {
  it.each(hotQueries.map((query) => [query.name, query] as const))('%s', async (_name, query) => {
    const use = planUse(await query.explain());
    expect(use.stages, 'no winning plan found in the explain output').not.toEqual([]);
    if (onSecantus && query.secantus !== undefined) {
      expect(
        use.stages,
        `SecantusDB now plans this shape (${query.secantus}) on an index: remove the exception`,
      ).toContain('COLLSCAN');
      return;
    }
    expect(use.stages).not.toContain('COLLSCAN');
    const expected = [query.index].flat();
    expect(use.indexes).not.toEqual([]);
    for (const index of use.indexes) expect(expected).toContain(index);
  });

  it('walks the plan shapes of both servers', () => {
    // MongoDB 7/8: SBE nests the tree under queryPlan; a pipeline pushed down whole has no $cursor stage; IDHACK names no index.
    const sbe = {
      queryPlanner: {
        winningPlan: {
          queryPlan: {
            stage: 'GROUP',
            inputStage: { stage: 'FETCH', inputStage: { stage: 'IXSCAN', indexName: 'a_1' } },
          },
        },
        rejectedPlans: [{ stage: 'COLLSCAN' }],
      },
    };
    expect(planUse(sbe)).toEqual({ stages: ['GROUP', 'FETCH', 'IXSCAN'], indexes: ['a_1'] });
    const or = {
      queryPlanner: {
        winningPlan: {
          stage: 'SUBPLAN',
          inputStage: { stage: 'OR', inputStages: [{ stage: 'IXSCAN', indexName: 'a_1' }, { stage: 'IDHACK' }] },
        },
      },
    };
    expect(planUse(or)).toEqual({ stages: ['SUBPLAN', 'OR', 'IXSCAN', 'IDHACK'], indexes: ['a_1', '_id_'] });
    const express = {
      queryPlanner: {
        winningPlan: { isCached: false, stage: 'EXPRESS_IXSCAN', keyPattern: '{ _id: 1 }', indexName: '_id_' },
      },
    };
    expect(planUse(express)).toEqual({ stages: ['EXPRESS_IXSCAN'], indexes: ['_id_'] });
    // SecantusDB and MongoDB's classic engine: an aggregate's $cursor stage.
    const cursor = { stages: [{ $cursor: { queryPlanner: { winningPlan: { stage: 'COLLSCAN' } } } }, { $group: {} }] };
    expect(planUse(cursor)).toEqual({ stages: ['COLLSCAN'], indexes: [] });
  });
});
