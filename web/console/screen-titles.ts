/** The screens of CONTRACTS §12 by the name they have in the URL's fragment (#/send), in the order of the menu. */
export const screenTitles = {
  project: 'Project',
  send: 'Send',
  notifications: 'Notifications',
  templates: 'Templates',
  segments: 'Segments',
  journeys: 'Journeys',
  'in-app-messages': 'In-app messages',
  events: 'Events',
  devices: 'Devices',
} as const;

export type ScreenName = keyof typeof screenTitles;
