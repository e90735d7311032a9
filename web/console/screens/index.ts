import type { FunctionComponent } from 'preact';
import type { ScreenName } from '../screen-titles.ts';
import { ProjectScreen } from './project.tsx';
import { OverviewScreen } from './overview.tsx';
import { SendScreen } from './send.tsx';
import { NotificationsScreen } from './notifications.tsx';
import { TemplatesScreen } from './templates.tsx';
import { SegmentsScreen } from './segments.tsx';
import { JourneysScreen } from './journeys.tsx';
import { EventsScreen } from './events.tsx';
import { DevicesScreen } from './devices.tsx';
import { DeviceImportsScreen } from './device-imports.tsx';
import { WebhooksScreen } from './webhooks.tsx';
import { InAppMessagesScreen } from './in-app-messages.tsx';

export const screens: Record<ScreenName, FunctionComponent> = {
  overview: OverviewScreen,
  project: ProjectScreen,
  send: SendScreen,
  notifications: NotificationsScreen,
  templates: TemplatesScreen,
  segments: SegmentsScreen,
  journeys: JourneysScreen,
  'in-app-messages': InAppMessagesScreen,
  events: EventsScreen,
  devices: DevicesScreen,
  'device-imports': DeviceImportsScreen,
  webhooks: WebhooksScreen,
};
