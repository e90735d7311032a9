import { Agent } from 'node:https';
import { connect } from 'node:tls';

/**
 * firebase-admin always addresses https://fcm.googleapis.com; this agent sends those connections to the local
 * sandbox instead, whose certificate is self-signed, so it is not verified (loopback only).
 */
export function sandboxFcmAgent(sandboxPort: number): Agent {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  agent.createConnection = () =>
    connect({ host: '127.0.0.1', port: sandboxPort, servername: 'fcm.googleapis.com', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });
  return agent;
}
