export const queueNames = {
  send: 'send',
  deliver: 'deliver',
  tagUpdate: 'tag-update',
  eventIngest: 'event-ingest',
  maintenance: 'maintenance',
} as const;

export type QueueName = (typeof queueNames)[keyof typeof queueNames];
