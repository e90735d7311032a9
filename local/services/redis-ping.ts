import { connect } from 'node:net';

/** Raw RESP PING so readiness checks need no client library and leave no reconnecting client behind. */
export function redisAnswersPing(host: string, port: number, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let received = '';
    const finish = (answered: boolean): void => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.on('error', () => finish(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
      if (received.includes('\r\n')) finish(received.startsWith('+PONG'));
    });
  });
}
