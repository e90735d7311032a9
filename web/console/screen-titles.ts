/** The screens of CONTRACTS §12 by the name they have in the URL's fragment (#/send), in the order of the menu. */
export const screenTitles = {
  overview: 'Overview',
  project: 'Project',
  send: 'Send',
  notifications: 'Notifications',
  templates: 'Templates',
  segments: 'Segments',
  journeys: 'Journeys',
  'in-app-messages': 'In-app messages',
  events: 'Events',
  devices: 'Devices',
  'device-imports': 'Import devices',
  webhooks: 'Webhooks',
} as const;

export type ScreenName = keyof typeof screenTitles;

/** A screen's own name only: `in` also found the names every object inherits (#/constructor, #/__proto__). */
export function isScreenName(name: string): name is ScreenName {
  return Object.hasOwn(screenTitles, name);
}
