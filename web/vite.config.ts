import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { contentSecurityPolicyDevPlugin } from './content-security-policy.ts';

const apiPort = Number(process.env.API_PORT ?? 3000);
const api = `http://127.0.0.1:${apiPort}`;
const webPort = Number(process.env.WEB_PORT ?? 5173);
/** The Twilio emulator's signalling (local/web.ts sets it); the app reads it as import.meta.env too. */
const signallingHost = process.env.VITE_TWILIO_SIGNALLING_HOST;
// The local pictures bucket's origin (local/web.ts), allowed to connect like S3's in AWS.
const picturesOrigin = process.env.PICTURES_ORIGIN;

/** The dev server proxies the API and the socket, so the browser sees one origin as in production. */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss(), contentSecurityPolicyDevPlugin(`ws://localhost:${webPort}`, signallingHost, picturesOrigin)],
  // The import aliases (@shared/*, @/* for web/src, …) are tsconfig.json's `paths`, declared there once.
  resolve: { tsconfigPaths: true },
  server: {
    host: '127.0.0.1',
    port: webPort,
    strictPort: true,
    proxy: {
      '/api': { target: api, changeOrigin: false },
      '/ws': { target: api, ws: true },
    },
  },
  // Pre-bundled up front, so a first visit never triggers the dev server's optimise-and-reload.
  optimizeDeps: {
    include: [
      'react',
      'react-dom',
      'react-dom/client',
      'react-router',
      '@tanstack/react-query',
      'lucide-react',
      'radix-ui',
      'libphonenumber-js/min',
      '@twilio/voice-sdk',
    ],
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
});
