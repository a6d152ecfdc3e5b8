import WebSocket from 'ws';
import { stack } from './api';

/** A realtime socket of a signed-in user, and a promise of its close (the code the gateway sent). */
export function openSocket(accessToken: string): Promise<{ ws: WebSocket; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${stack().urls.websocket}?token=${encodeURIComponent(accessToken)}`);
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.once('open', () => resolve({ ws, closed }));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake ${res.statusCode}`)));
    ws.once('error', reject);
  });
}
