/** The calling thread's processor time (user and system), in µs: what a render thread has actually run. */
export function threadCpuMicros(): number {
  const { user, system } = process.threadCpuUsage();
  return user + system;
}
