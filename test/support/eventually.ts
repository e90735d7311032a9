/** Polls until check() answers without throwing, for effects that land asynchronously (queues, workers). */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 15_000, intervalMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
