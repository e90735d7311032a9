import type { FunctionComponent } from 'preact';
import { ProjectScreen } from './project.tsx';
import { SendScreen } from './send.tsx';
import { NotificationsScreen } from './notifications.tsx';
import { TemplatesScreen } from './templates.tsx';
import { SegmentsScreen } from './segments.tsx';
import { JourneysScreen } from './journeys.tsx';
import { EventsScreen } from './events.tsx';
import { DevicesScreen } from './devices.tsx';

/** The screens of CONTRACTS §12, by the name they have in the URL's fragment (#/send). */
export const screens = {
  project: { title: 'Project', component: ProjectScreen },
  send: { title: 'Send', component: SendScreen },
  notifications: { title: 'Notifications', component: NotificationsScreen },
  templates: { title: 'Templates', component: TemplatesScreen },
  segments: { title: 'Segments', component: SegmentsScreen },
  journeys: { title: 'Journeys', component: JourneysScreen },
  events: { title: 'Events', component: EventsScreen },
  devices: { title: 'Devices', component: DevicesScreen },
} satisfies Record<string, { title: string; component: FunctionComponent }>;

export type ScreenName = keyof typeof screens;
