import { MongoClient } from 'mongodb';

/** One bounded attempt: connect, run { ping: 1 }, close. */
export async function mongoAnswersPing(url: string, timeoutMs = 1_000): Promise<boolean> {
  return (await mongoBuildInfo(url, timeoutMs)) !== undefined;
}

/** The server's buildInfo, or undefined when it does not answer within timeoutMs. */
export async function mongoBuildInfo(url: string, timeoutMs = 1_000): Promise<Record<string, unknown> | undefined> {
  const client = new MongoClient(url, {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    socketTimeoutMS: timeoutMs,
    directConnection: true,
  });
  try {
    await client.connect();
    return await client.db('admin').command({ buildInfo: 1 });
  } catch {
    return undefined;
  } finally {
    await client.close().catch(() => {});
  }
}
