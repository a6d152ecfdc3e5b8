import { defineConfig } from 'vite';

const apiPort = Number(process.env.API_PORT ?? 3000);
const api = `http://127.0.0.1:${apiPort}`;

/** The dev server proxies the API and the socket, so the browser sees one origin as in production. */
export default defineConfig({
  root: import.meta.dirname,
  server: {
    host: '127.0.0.1',
    port: Number(process.env.WEB_PORT ?? 5173),
    strictPort: true,
    proxy: {
      '/api': { target: api, changeOrigin: false },
      '/ws': { target: api, ws: true },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true },
});
