import { Agent } from 'node:https';
import { connect } from 'node:tls';

/**
 * firebase-admin always addresses https://fcm.googleapis.com; this agent sends those connections to the local
 * sandbox instead (loopback, or SANDBOX_HOST in a container setup), whose certificate is self-signed, so it is not verified.
 */
export function sandboxFcmAgent(sandboxPort: number, sandboxHost: string): Agent {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  agent.createConnection = () =>
    connect({
      host: sandboxHost,
      port: sandboxPort,
      servername: 'fcm.googleapis.com',
      rejectUnauthorized: false,
      ALPNProtocols: ['http/1.1'],
    });
  return agent;
}
