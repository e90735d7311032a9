import type { FunctionComponent } from 'preact';
import type { ScreenName } from '../screen-titles.ts';
import { ProjectScreen } from './project.tsx';
import { SendScreen } from './send.tsx';
import { NotificationsScreen } from './notifications.tsx';
import { TemplatesScreen } from './templates.tsx';
import { SegmentsScreen } from './segments.tsx';
import { JourneysScreen } from './journeys.tsx';
import { EventsScreen } from './events.tsx';
import { DevicesScreen } from './devices.tsx';
import { InAppMessagesScreen } from './in-app-messages.tsx';

export const screens: Record<ScreenName, FunctionComponent> = {
  project: ProjectScreen,
  send: SendScreen,
  notifications: NotificationsScreen,
  templates: TemplatesScreen,
  segments: SegmentsScreen,
  journeys: JourneysScreen,
  'in-app-messages': InAppMessagesScreen,
  events: EventsScreen,
  devices: DevicesScreen,
};
