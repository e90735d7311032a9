import { MongoClient } from 'mongodb';

/** One bounded attempt: connect, run { ping: 1 }, close. */
export async function mongoAnswersPing(url: string, timeoutMs = 1_000): Promise<boolean> {
  const client = new MongoClient(url, {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    socketTimeoutMS: timeoutMs,
    directConnection: true,
  });
  try {
    await client.connect();
    const reply = await client.db('admin').command({ ping: 1 });
    return reply.ok === 1;
  } catch {
    return false;
  } finally {
    await client.close().catch(() => {});
  }
}
