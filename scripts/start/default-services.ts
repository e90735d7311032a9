import { redisAnswersPing } from '../services/redis-ping.ts';
import { mongoAnswersPing } from '../services/mongo-ping.ts';

export const defaultRedisPort = 6379;
export const defaultMongoPort = 27017;

/**
 * npm start and the project CLI must meet on the same servers without configuration: when nothing is set and a
 * server already answers on its default port, it is used; otherwise the local one is started on that port.
 */
export async function adoptRunningDefaults(log: (line: string) => void): Promise<void> {
  if (!process.env.REDIS_URL && (await redisAnswersPing('127.0.0.1', defaultRedisPort))) {
    process.env.REDIS_URL = `redis://127.0.0.1:${defaultRedisPort}`;
    log(`redis: one already answers on 127.0.0.1:${defaultRedisPort}; using it`);
  }
  const mongoUrl = `mongodb://127.0.0.1:${defaultMongoPort}`;
  if (!process.env.MONGODB_URL && (await mongoAnswersPing(mongoUrl))) {
    process.env.MONGODB_URL = `${mongoUrl}/pushengine`;
    log(`mongodb: one already answers on 127.0.0.1:${defaultMongoPort}; using it`);
  }
}
