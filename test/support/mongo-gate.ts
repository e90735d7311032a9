import { connect, createServer, type Socket } from 'node:net';
import { once } from 'node:events';
import { ConnectionString } from 'mongodb-connection-string-url';

/**
 * A TCP proxy in front of the MongoDB-wire server that can hold one kind of command on one collection (the
 * update of a device, the update of the devices unsubscribed) until released, as a server stalled on that
 * write would: a test stops a process at exactly that point of its work. A command is recognised by the bytes of
 * the first element of its body, <command>: "<collection>", found in the wire message.
 */
export interface MongoGate {
  /** The database's URL through the proxy, a direct connection: the driver must not go on to the address the server gives. */
  url: string;
  /** From now on, holds each such command and whatever its connection sends after it. */
  hold(command: string, collection: string): void;
  /** How many connections have a command held. */
  held(): number;
  /** Sends the held commands on and holds no more; those of a connection that closed meanwhile are dropped. */
  release(): void;
  /** Holds no more, and never sends the held commands on: a server that took them and will not answer. */
  forget(): void;
  close(): Promise<void>;
}

/** The BSON of the string element command: "collection". */
function commandElement(command: string, collection: string): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32LE(Buffer.byteLength(collection) + 1);
  return Buffer.concat([Buffer.from([0x02]), Buffer.from(`${command}\0`), length, Buffer.from(`${collection}\0`)]);
}

export async function startMongoGate(mongoUrl: string): Promise<MongoGate> {
  const [targetHost, targetPort] = new ConnectionString(mongoUrl).hosts[0]!.split(':') as [string, string];
  let pattern: Buffer | null = null;
  /** Per connection with a command held: that command and those sent after it, and where they go. */
  const holding = new Map<Socket, { upstream: Socket; messages: Buffer[] }>();
  const sockets = new Set<Socket>();

  const server = createServer((client) => {
    const upstream = connect(Number(targetPort), targetHost);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        holding.delete(client);
        client.destroy();
        upstream.destroy();
        sockets.delete(socket);
      });
    }
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    let received = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      // Each wire message starts with its length (int32, little-endian).
      while (received.length >= 4 && received.length >= received.readInt32LE(0)) {
        const message = received.subarray(0, received.readInt32LE(0));
        received = received.subarray(message.length);
        const held = holding.get(client);
        if (held) held.messages.push(message);
        else if (pattern && message.includes(pattern)) holding.set(client, { upstream, messages: [message] });
        else upstream.write(message);
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const proxied = new ConnectionString(mongoUrl);
  proxied.hosts = [`127.0.0.1:${(server.address() as { port: number }).port}`];
  proxied.searchParams.set('directConnection', 'true');

  return {
    url: proxied.toString(),
    hold(command, collection) {
      pattern = commandElement(command, collection);
    },
    held: () => holding.size,
    release() {
      pattern = null;
      for (const { upstream, messages } of holding.values()) for (const message of messages) upstream.write(message);
      holding.clear();
    },
    forget() {
      pattern = null;
      // Their connections stay open and silent; the later messages of each are dropped with them.
      for (const held of holding.values()) held.messages = [];
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
