/**
 * The ingress's queue of connections the kernel has completed and the process not yet accepted. Node's default, 511,
 * overflows in a burst of new connections (a thousand SDK registrations at once) while the event loop is busy: the
 * kernel then drops them and their clients see ECONNRESET. The kernel caps it at net.core.somaxconn (4096 by default
 * since Linux 5.4).
 */
export const listenBacklog = 4096;
