import mongoose from 'mongoose';
import { describe, expect, it } from 'vitest';
import { useIngress } from '../support/ingress.ts';
import { registerDevices } from '../support/delivery-harness.ts';
import { createModels } from '../../src/models/index.ts';
import { sendProcessor } from '../../src/fan-out/send-processor.ts';
import { claimSending, SendCanceledError } from '../../src/fan-out/send-claim.ts';

// No workers: the test runs the send job itself, over a connection whose commands it sees.
const {
  ingress,
  projects: { project },
} = useIngress({ projects: { project: 'team' } });

describe('what a send costs the database (each write is journaled)', () => {
  it("writes a send to a user's notification twice after creating it: sending with its count, then completed", async () => {
    await registerDevices(ingress, project, [{ id: 'w-phone', platform: 'android', token: 'tok-w', userId: 'wendy' }]);
    const created = await ingress.request('POST', `/v1/projects/${project.projectId}/notifications`, {
      key: project.apiKey,
      body: { targetType: 'userId', targetIds: ['wendy'], body: 'Hello' },
    });
    expect(created.status).toBe(200);
    const notificationId: string = created.body.data.id;
    const job = await ingress.context.queues.send.getJob(notificationId);
    const monitored = mongoose.createConnection(ingress.context.config.mongoUrl, { monitorCommands: true });
    try {
      await monitored.asPromise();
      const notificationWrites: string[] = [];
      monitored.getClient().on('commandStarted', (event) => {
        const isWrite = ['insert', 'update', 'delete', 'findAndModify'].includes(event.commandName);
        if (isWrite && event.command[event.commandName] === 'notifications')
          notificationWrites.push(JSON.stringify(event.command.updates?.[0]?.u ?? event.commandName));
      });
      await sendProcessor({ ...ingress.context, models: createModels(monitored) })(job!);
      expect(notificationWrites).toEqual([
        expect.stringMatching(/"status":"sending"/),
        expect.stringMatching(/"status":"completed"/),
      ]);
      expect(notificationWrites[0]).toMatch(/"stats.targeted":1/);
    } finally {
      await monitored.close();
    }
    const read = await ingress.request('GET', `/v1/projects/${project.projectId}/notifications/${notificationId}`, {
      key: project.apiKey,
    });
    expect(read.body.data).toMatchObject({ status: 'completed', stats: { targeted: 1 } });
  });

  it('a fan-out run that another run overtook and completed ends without moving the send back to sending', async () => {
    await registerDevices(ingress, project, [{ id: 'o-phone', platform: 'android', token: 'tok-o', userId: 'olga' }]);
    const created = await ingress.request('POST', `/v1/projects/${project.projectId}/notifications`, {
      key: project.apiKey,
      body: { targetType: 'userId', targetIds: ['olga'], body: 'Hello' },
    });
    const notificationId: string = created.body.data.id;
    await sendProcessor(ingress.context)((await ingress.context.queues.send.getJob(notificationId))!);
    // The overtaken run's claim of its page, after the other run completed the send.
    await expect(claimSending(ingress.context.models, notificationId, { 'stats.targeted': 1 })).rejects.toThrow(
      SendCanceledError,
    );
    const read = await ingress.request('GET', `/v1/projects/${project.projectId}/notifications/${notificationId}`, {
      key: project.apiKey,
    });
    expect(read.body.data.status).toBe('completed');
  });
});
