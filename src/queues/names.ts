export const queueNames = {
  send: 'send',
  tagUpdate: 'tag-update',
  eventIngest: 'event-ingest',
  maintenance: 'maintenance',
} as const;

export type QueueName = (typeof queueNames)[keyof typeof queueNames];
