import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { modelsCountingInserts } from '../support/counted-inserts.ts';
import { eventIngestProcessor } from '../../src/event-ingest/event-ingest-processor.ts';
import { eventIngestJobName, newIngestJobId, type EventIngestJob } from '../../src/queues/event-ingest.ts';

const {
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });

describe('the event-ingest worker', () => {
  it('stores the events of the jobs it runs at once in one insert, each job its own events', async () => {
    const { models, inserts: eventInserts } = await modelsCountingInserts(ingress.context.config.mongoUrl, 'events');
    const process = eventIngestProcessor({ ...ingress.context, models });
    // The jobs a worker runs at once (its concurrency is 8), each one reported event.
    const jobs = Array.from({ length: 8 }, (_, index) => {
      const data: EventIngestJob = {
        projectId: project.projectId,
        receivedAt: new Date().toISOString(),
        events: [{ type: 'gathered', subjectType: 'device', subjectId: `reporter-${index}`, data: { index } }],
      };
      return {
        id: newIngestJobId(),
        name: eventIngestJobName(project.projectId),
        data,
        updateData: async () => {},
      } as unknown as Job;
    });
    await Promise.all(jobs.map((job) => process(job)));

    const stored = await ingress.context.models.Event.find({ projectId: project.projectId, type: 'gathered' }).lean();
    expect(stored.map((event) => event.subjectId).sort()).toEqual(
      Array.from({ length: 8 }, (_, index) => `reporter-${index}`).sort(),
    );
    expect(stored.map((event) => String(event._id).split(':')[0]).sort()).toEqual(jobs.map((job) => job.id).sort());
    expect(eventInserts.reduce((sum, documents) => sum + documents, 0)).toBe(8);
    // One a job before.
    expect(eventInserts.length).toBeLessThanOrEqual(2);
  });
});
