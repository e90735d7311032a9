import type { Socket } from 'node:net';

/**
 * Sends a PUT whose body is announced as 100 bytes and of which one arrives, and resolves once the ingress is handling
 * it: `Expect: 100-continue` makes Node answer `100 Continue` when it hands the request to the app. Before that the
 * connection is idle, and a shutdown would simply close it.
 */
export async function sendStalledRequest(socket: Socket, port: number, path: string, key: string): Promise<void> {
  await new Promise<void>((resolve) => socket.connect(port, '127.0.0.1', resolve));
  const continued = new Promise<void>((resolve, reject) =>
    socket.once('data', (chunk) => {
      const answer = chunk.toString();
      if (answer.startsWith('HTTP/1.1 100')) resolve();
      else reject(new Error(`the ingress answered the stalled request at once:\n${answer}`));
    }),
  );
  socket.write(
    `PUT ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
      'Content-Length: 100\r\nExpect: 100-continue\r\n\r\n',
  );
  await continued;
  socket.write('{');
}
