import WebSocket from 'ws';
import { callRoute, stack } from './api';
import { endpoints } from './endpoints';

/** A realtime socket of a signed-in user (opened with a ticket, as the app does), and a promise of its close. */
export async function openSocket(accessToken: string): Promise<{ ws: WebSocket; closed: Promise<number> }> {
  const res = await callRoute(endpoints.realtimeTicket, { token: accessToken });
  if (res.status !== 201) throw new Error(`ticket failed: ${res.status} ${JSON.stringify(res.body)}`);
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${stack().urls.websocket}?ticket=${encodeURIComponent(res.body.data.ticket)}`);
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.once('open', () => resolve({ ws, closed }));
    ws.once('unexpected-response', (_req, response) => reject(new Error(`handshake ${response.statusCode}`)));
    ws.once('error', reject);
  });
}
