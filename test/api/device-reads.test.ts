import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { createModels, type Models } from '../../src/models/index.ts';
import { DeviceReads } from '../../src/devices/device-reads.ts';
import { deviceKey } from '../../src/models/device.ts';
import { startMongoGate, type MongoGate } from '../support/mongo-gate.ts';
import { testConfig } from '../support/test-config.ts';
import { waitFor } from '../support/eventually.ts';

/** DeviceReads over a connection through a gate that can hold the device reads, which the test counts. */
const config = testConfig();
let gate: MongoGate;
let connection: mongoose.Connection;
let models: Models;
const deviceFinds: unknown[] = [];
let deviceGetMores = 0;

beforeAll(async () => {
  gate = await startMongoGate(config.mongoUrl);
  connection = mongoose.createConnection(gate.url, { monitorCommands: true });
  await connection.asPromise();
  models = createModels(connection);
  await models.Device.insertMany(
    ['a', 'b', 'c'].map((deviceId) => ({
      _id: deviceKey('p', deviceId),
      projectId: 'p',
      deviceId,
      platform: 'android',
      pushToken: `token-${deviceId}`,
    })),
  );
  connection.getClient().on('commandStarted', (event) => {
    if (event.commandName === 'find' && event.command.find === 'devices') deviceFinds.push(event.command.filter);
    if (event.commandName === 'getMore' && event.command.collection === 'devices') deviceGetMores += 1;
  });
});

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
  await gate?.close();
});

const idsOf = (devices: Array<{ deviceId: string } | null>) => devices.map((device) => device?.deviceId ?? null);

describe('device reads by key', () => {
  it('answers the reads asked for together from one query, each with its device or null', async () => {
    deviceFinds.length = 0;
    const reads = new DeviceReads(models);
    const keys = ['a', 'b', 'missing', 'a'].map((deviceId) => deviceKey('p', deviceId));
    const devices = await Promise.all(keys.map((key) => reads.byKey(key)));
    expect(idsOf(devices)).toEqual(['a', 'b', null, 'a']);
    expect(devices[0]).toMatchObject({ platform: 'android', pushToken: 'token-a' });
    expect(deviceFinds).toEqual([
      { _id: { $in: [deviceKey('p', 'a'), deviceKey('p', 'b'), deviceKey('p', 'missing')] } },
    ]);
  });

  it('sends the reads asked for, turn after turn, while a query is out as the next query, all together', async () => {
    deviceFinds.length = 0;
    const reads = new DeviceReads(models);
    gate.hold('find', 'devices');
    const first = reads.byKey(deviceKey('p', 'a'));
    await waitFor(
      async () => gate.held(),
      (held) => held === 1,
    );
    const later: Array<ReturnType<DeviceReads['byKey']>> = [];
    for (const deviceId of ['b', 'c', 'missing']) {
      later.push(reads.byKey(deviceKey('p', deviceId)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    gate.release();
    expect(idsOf([await first])).toEqual(['a']);
    expect(idsOf(await Promise.all(later))).toEqual(['b', 'c', null]);
    expect(deviceFinds).toEqual([
      { _id: deviceKey('p', 'a') },
      { _id: { $in: [deviceKey('p', 'b'), deviceKey('p', 'c'), deviceKey('p', 'missing')] } },
    ]);
  });

  it('sends a burst of reads in queries of at most 500 keys, each answered in one reply', async () => {
    const stored = Array.from({ length: 600 }, (_, index) => `burst-${index}`);
    await models.Device.insertMany(
      stored.map((deviceId) => ({ _id: deviceKey('p', deviceId), projectId: 'p', deviceId, platform: 'ios' })),
    );
    deviceFinds.length = 0;
    deviceGetMores = 0;
    const reads = new DeviceReads(models);
    const deviceIds = [...stored, ...Array.from({ length: 401 }, (_, index) => `absent-${index}`)];
    const keys = deviceIds.map((deviceId) => deviceKey('p', deviceId));
    const devices = await Promise.all(keys.map((key) => reads.byKey(key)));
    expect(idsOf(devices)).toEqual([...stored, ...Array(401).fill(null)]);
    expect(deviceFinds).toEqual([
      { _id: { $in: keys.slice(0, 500) } },
      { _id: { $in: keys.slice(500, 1000) } },
      { _id: keys[1000] },
    ]);
    expect(deviceGetMores).toBe(0);
  });
});
