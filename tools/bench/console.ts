/**
 * npm run bench:console -- --devices 100000 --notifications 1000
 * The console in headless Chromium against an ingress process, with N devices (tags plan and score, two per user),
 * M notifications over the last 30 days (with their batch counts, clicks and the project's daily counts), 1,000
 * events, a template, a segment, a journey and a device history. For each screen (the overview's 30 days of charts
 * included): the time from clicking its link (or its lookup button, or the segment chosen for a send's audience
 * count) to its first data on screen. Target: every screen under 1 s.
 */
import { parseArgs } from 'node:util';
import { chromium, type Locator, type Page } from 'playwright-core';
import { openBenchEnvironment } from './bench-environment.ts';
import { seedDevices } from './seed-devices.ts';
import { seedNotificationStats } from './seed-notification-stats.ts';
import { checkTarget } from './database-ceilings.ts';
import { createProject } from '../../src/projects/create-project.ts';
import { historyKey } from '../../src/models/history.ts';
import { buildWebAssets } from '../../web/build.ts';
import { findOrInstallChromium } from '../../local/services/chromium.ts';
import { headlessChromiumArgsWithoutUnusedFeatures } from '../../local/services/chromium-flags.ts';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '100000' },
    notifications: { type: 'string', default: '1000' },
    json: { type: 'boolean', default: false },
  },
});
const deviceCount = Number(values.devices);
const notificationCount = Number(values.notifications);
const eventCount = 1000;
const log = (line: string) => process.stderr.write(`[console] ${line}\n`);

await buildWebAssets(log);
const executablePath = await findOrInstallChromium(log);
const environment = await openBenchEnvironment('console');
const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: await headlessChromiumArgsWithoutUnusedFeatures(executablePath),
});
try {
  const { models, baseUrl } = environment;
  await environment.startIngress();
  const project = await createProject(models, { name: 'bench console', plan: 'team' });
  const { projectId } = project;
  await seedDevices(
    models,
    projectId,
    deviceCount,
    (index) => ({ plan: ['free', 'pro', 'team'][index % 3]!, score: index % 100 }),
    { devicesPerUser: 2, label: 'console' },
  );

  const now = Date.now();
  // 30 days of sends, with the batch counts and clicks the overview's charts are drawn from.
  await seedNotificationStats(models, projectId, { count: notificationCount, devices: deviceCount, now });
  await models.Event.insertMany(
    Array.from({ length: eventCount }, (_, index) => ({
      _id: `bench:${String(index).padStart(4, '0')}`,
      projectId,
      type: ['purchase', 'view'][index % 2],
      subjectType: 'device',
      subjectId: `device-${index}`,
      data: { amount: index },
      receivedAt: new Date(now - index * 1000),
    })),
  );
  const firstNotification = await models.Notification.findOne({ projectId }).sort({ createdAt: -1 }).lean();
  await models.History.insertMany(
    ['device-0', 'device-1'].map((deviceId) => ({
      _id: historyKey(firstNotification!._id, deviceId),
      projectId,
      deviceId,
      notificationId: firstNotification!._id,
      notification: {
        id: firstNotification!._id,
        createdAt: firstNotification!.createdAt,
        title: null,
        body: firstNotification!.body,
        url: null,
        imageUrl: null,
      },
      sentAt: new Date(),
    })),
  );
  const api = async (path: string, body: unknown) => {
    const response = await fetch(`${baseUrl}/v1/projects/${projectId}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${project.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  };
  await api('/templates', { name: 'Bench template', body: 'Hello {{ device.tags.plan }}' });
  await api('/segments', { name: 'Pro users', match: 'all', conditions: [{ tag: 'plan', op: 'eq', value: 'pro' }] });
  await api('/journeys', { name: 'Bench journey', trigger: { event: 'purchase' }, body: 'Thanks' });
  log(`seeded ${deviceCount} devices, ${notificationCount} notifications, ${eventCount} events`);

  const page: Page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(30_000);
  await page.goto(`${baseUrl}/console`);
  await page.getByLabel('Server API key or ADMIN_TOKEN').fill(project.apiKey);
  // The overview opens after sign-in: its first ever for the project also counts the devices subscribed once.
  const signedIn = performance.now();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('figure[data-chart] svg').first().waitFor();
  const firstOverviewMs = Math.round(performance.now() - signedIn);

  const timed = async (act: () => Promise<void>, firstData: string | Locator): Promise<number> => {
    const started = performance.now();
    await act();
    await (typeof firstData === 'string' ? page.locator(firstData) : firstData).first().waitFor();
    return Math.round(performance.now() - started);
  };
  const count = (testId: string, devices?: number) =>
    page
      .getByTestId(testId)
      .filter({ hasText: devices === undefined ? /^\d+ subscribed device/ : `${devices} subscribed` });
  const open = (title: string) => () =>
    page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: title, exact: true }).click();
  const screens: Record<string, number> = {};
  // Devices 1, 4, 7, … have the plan pro.
  const proDevices = Math.floor((deviceCount + 1) / 3);
  // Each screen's first data, as a selector that only matches once that data has arrived. The send screen's is its
  // list of segments: no segment is chosen until the user chooses one, whose count is timed next.
  screens.project = await timed(open('Project'), `.facts dd:has-text("${projectId}")`);
  // Opened after sign-in too; timed here from another screen, as its link is then a navigation.
  screens.overview = await timed(open('Overview'), 'figure[data-chart] svg');
  screens.send = await timed(open('Send'), page.getByLabel('Segment', { exact: true }));
  screens.sendCount = await timed(
    () =>
      page
        .getByLabel('Segment', { exact: true })
        .selectOption({ label: 'Pro users' })
        .then(() => undefined),
    count('audience-count', proDevices),
  );
  screens.notifications = await timed(open('Notifications'), 'tr[data-notification]');
  screens.templates = await timed(open('Templates'), '.picks li');
  screens.segments = await timed(open('Segments'), '.picks li');
  // The count of a new, empty segment (the whole project) first, so that the timed count does not queue behind it.
  await count('segment-count').waitFor();
  screens.segmentCount = await timed(
    () => page.getByRole('button', { name: 'Pro users' }).click(),
    count('segment-count', proDevices),
  );
  screens.journeys = await timed(open('Journeys'), 'tbody tr');
  screens.events = await timed(open('Events'), '[data-testid="events-table"] tbody tr');
  // The devices screen opens on the newest devices; a lookup is timed once they are on screen.
  screens.devices = await timed(open('Devices'), '[data-testid="newest-devices"] tr[data-device-row]');
  await page.getByLabel('User id').fill('user-0');
  screens.deviceLookup = await timed(
    () => page.getByRole('button', { name: 'Look up' }).click(),
    '[data-testid="history"] li',
  );
  for (const [screen, ms] of Object.entries(screens)) log(`${screen}: ${ms} ms`);
  log(`overview after sign-in, the project's first: ${firstOverviewMs} ms`);

  const result = {
    devices: deviceCount,
    notifications: notificationCount,
    firstDataMs: screens,
    firstOverviewAfterSignInMs: firstOverviewMs,
    targets: Object.entries(screens).map(([screen, ms]) =>
      checkTarget(`${screen} first data at ${deviceCount} devices < 1 s (ms)`, ms, ms < 1000),
    ),
    services: environment.services.path,
  };
  process.stdout.write(`${JSON.stringify(result, null, values.json ? undefined : 2)}\n`);
} finally {
  await browser.close();
  await environment.close();
}
