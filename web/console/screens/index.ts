import type { FunctionComponent } from 'preact';
import type { ScreenName } from '../screen-titles.ts';
import type { ScreenProps } from '../route.ts';

type ScreenLoader = () => Promise<FunctionComponent<ScreenProps>>;

/** Each screen's code is its own chunk, loaded when the screen is first shown: the first load carries none of them. */
export const screens: Record<ScreenName, ScreenLoader> = {
  overview: () => import('./overview.tsx').then((module) => module.OverviewScreen),
  project: () => import('./project.tsx').then((module) => module.ProjectScreen),
  send: () => import('./send.tsx').then((module) => module.SendScreen),
  notifications: () => import('./notifications.tsx').then((module) => module.NotificationsScreen),
  templates: () => import('./templates.tsx').then((module) => module.TemplatesScreen),
  segments: () => import('./segments.tsx').then((module) => module.SegmentsScreen),
  journeys: () => import('./journeys.tsx').then((module) => module.JourneysScreen),
  'in-app-messages': () => import('./in-app-messages.tsx').then((module) => module.InAppMessagesScreen),
  events: () => import('./events.tsx').then((module) => module.EventsScreen),
  devices: () => import('./devices.tsx').then((module) => module.DevicesScreen),
  'device-imports': () => import('./device-imports.tsx').then((module) => module.DeviceImportsScreen),
  webhooks: () => import('./webhooks.tsx').then((module) => module.WebhooksScreen),
};
