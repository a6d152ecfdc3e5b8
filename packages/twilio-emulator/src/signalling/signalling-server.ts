import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { Logger } from '../log';
import { localCertificate } from './certificate';
import { soundFile } from './sounds';
import type { VoiceSdkSignalling } from './voice-sdk-signalling';

/**
 * The emulator's TLS port: the Voice SDK's signalling at `wss://localhost:{port}/signal` (the SDK's
 * `chunderw` option is `localhost:{port}`), the SDK's sounds at `/sounds/{name}.wav`, and at `/` a page that
 * tells a person the certificate is trusted (opening it once is how they trust it; docs/local-stack.md:
 * Trusting the signalling certificate).
 */
export async function startSignallingServer(options: {
  port: number;
  /** Where the self-signed certificate is kept (generated on first start). */
  certificateDir: string;
  signalling: VoiceSdkSignalling;
  log: Logger;
}) {
  const { signalling, log } = options;
  const certificate = await localCertificate(options.certificateDir);
  const server = createServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://localhost').pathname;
    const sound = /^\/sounds\/([\w-]+)\.wav$/.exec(path);
    const file = sound ? soundFile(sound[1] ?? '') : undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    } else if (file) {
      // The SDK loads its sounds with XHR from the web app's origin.
      res.writeHead(200, {
        'Content-Type': 'audio/wav',
        'Content-Length': file.length,
        'Access-Control-Allow-Origin': '*',
        'Cache-Control': 'public, max-age=86400',
      });
      res.end(req.method === 'HEAD' ? undefined : file);
    } else if (path === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : trustedPage());
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
    }
  });
  const sockets = new WebSocketServer({ server, path: '/signal' });
  sockets.on('connection', (socket) => signalling.connect(socket));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const host = `localhost:${(server.address() as AddressInfo).port}`;
  log.info(`Voice SDK signalling on wss://${host}/signal (certificate ${certificate.certFile})`);
  return {
    /** What the SDK's `chunderw` option takes. */
    host,
    url: `wss://${host}/signal`,
    soundsUrl: `https://${host}/sounds`,
    certFile: certificate.certFile,
    stop: () =>
      new Promise<void>((resolve) => {
        signalling.stop();
        sockets.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function trustedPage() {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Twilio emulator: Voice SDK signalling</title>
<style>body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem; color: #1f2328; }</style>
</head>
<body>
<h1>Voice SDK signalling</h1>
<p>This browser trusts the Twilio emulator's local certificate: the softphone can now reach the emulator's
signalling. You can close this tab and go back to Switchboard.</p>
</body>
</html>
`;
}
