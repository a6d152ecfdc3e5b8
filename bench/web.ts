/**
 * `npm run bench` (second part): builds the web app (`npm run build:web`, Vite into web/dist) and
 * measures the JavaScript a first visit to /login costs, gzip level 9 per file:
 *  - entry + modulepreload: the `<script type="module" src>` and every `<link rel="modulepreload">`
 *    of web/dist/index.html, i.e. what the HTML alone makes the browser fetch;
 *  - all JS on the first /login visit: every .js file Chromium actually loads when it opens /login
 *    from a static server over web/dist (SPA fallback), which adds the lazily loaded route chunks.
 * Each figure has its budget (BUDGETS_KB). Writes bench/results/web.json; exits 1 over either.
 * CHROMIUM_PATH overrides the browser (default: Debian's /usr/bin/chromium).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CHROMIUM, launchChromium } from '../test/support/browser-launch';
import { repoRoot, resultsDir } from './lib/paths';
import { printTable, round, writeJson } from './lib/report';
import { serveStatic } from './lib/static-server';

/** gzip, KB = 1024 bytes. */
const BUDGETS_KB = {
  // docs/architecture.md §5: what index.html alone makes every first visit fetch, signed in or not.
  entryAndModulepreload: 100,
  // All JS of the first /login visit (the typed client must keep zod out of it).
  firstLoginVisit: 110,
};
const dist = join(repoRoot, 'web', 'dist');

const started = performance.now();
console.log('Building the web app (npm run build:web)...');
const build = spawnSync('npm', ['run', '--silent', 'build:web'], { cwd: repoRoot, stdio: 'inherit' });
if (build.status !== 0) {
  console.error(`npm run build:web failed (exit ${build.status ?? build.signal})`);
  process.exit(1);
}

const html = await readFile(join(dist, 'index.html'), 'utf8');
const attribute = (tag: string, name: string) => new RegExp(`\\s${name}=["']([^"']+)["']`, 'i').exec(tag)?.[1];
const tags = (name: string) => html.match(new RegExp(`<${name}\\b[^>]*>`, 'gi')) ?? [];
const entry = tags('script')
  .filter((t) => attribute(t, 'type') === 'module')
  .map((t) => attribute(t, 'src'))
  .filter((src): src is string => Boolean(src));
const preloads = tags('link')
  .filter((t) => attribute(t, 'rel') === 'modulepreload')
  .map((t) => attribute(t, 'href'))
  .filter((href): href is string => Boolean(href));
if (entry.length === 0) throw new Error('web/dist/index.html has no <script type="module" src>');
const fromHtml = [...new Set([...entry, ...preloads].map((u) => new URL(u, 'http://x').pathname))];

if (!existsSync(CHROMIUM)) {
  console.error(`No Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH).`);
  process.exit(1);
}
const server = await serveStatic(dist);
const browser = await launchChromium();
const loaded: string[] = [];
const browserVersion = browser.version();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('response', (res) => {
    const path = new URL(res.url()).pathname;
    if (res.ok() && path.endsWith('.js') && !loaded.includes(path)) loaded.push(path);
  });
  await page.goto(`${server.url}/login`, { waitUntil: 'networkidle' });
  // The lazily loaded page has rendered: its chunks are in.
  await page.getByRole('button', { name: 'Sign in' }).waitFor({ state: 'visible', timeout: 30_000 });
  await page.waitForLoadState('networkidle');
} finally {
  await browser.close();
  await server.close();
}
const missing = fromHtml.filter((p) => !loaded.includes(p));
if (missing.length) throw new Error(`Chromium did not load files index.html references: ${missing.join(', ')}`);

const measure = async (path: string) => {
  const bytes = await readFile(join(dist, path));
  return { file: path.replace(/^\/assets\//, ''), bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
};
const measured = await Promise.all(loaded.map(measure));
// index.html's files first, then the lazy ones, biggest first: a stable order for the committed record.
const files = measured.sort(
  (a, b) =>
    Number(fromHtml.includes(`/assets/${b.file}`)) - Number(fromHtml.includes(`/assets/${a.file}`)) || b.gzipBytes - a.gzipBytes,
);
const kb = (bytes: number) => round(bytes / 1024, 1);
const sum = (list: typeof files, key: 'bytes' | 'gzipBytes') => list.reduce((total, f) => total + f[key], 0);
const inHtml = (f: (typeof files)[number]) => fromHtml.includes(`/assets/${f.file}`) || fromHtml.includes(`/${f.file}`);
const htmlFiles = files.filter(inHtml);
const totals = {
  entryAndModulepreload: { files: htmlFiles.length, bytes: sum(htmlFiles, 'bytes'), gzipBytes: sum(htmlFiles, 'gzipBytes') },
  firstLoginVisit: { files: files.length, bytes: sum(files, 'bytes'), gzipBytes: sum(files, 'gzipBytes') },
};
const within = (key: keyof typeof BUDGETS_KB) => totals[key].gzipBytes <= BUDGETS_KB[key] * 1024;
const pass = within('entryAndModulepreload') && within('firstLoginVisit');

printTable(
  ['file', 'loaded by', 'KB', 'gzip KB'],
  [
    ...files.map((f) => [f.file, inHtml(f) ? 'index.html' : 'lazy (route)', kb(f.bytes).toFixed(1), kb(f.gzipBytes).toFixed(1)]),
    [
      'entry + modulepreload',
      `${htmlFiles.length} files`,
      ...[totals.entryAndModulepreload.bytes, totals.entryAndModulepreload.gzipBytes].map((b) => kb(b).toFixed(1)),
    ],
    [
      'all JS, first /login visit',
      `${files.length} files`,
      ...[totals.firstLoginVisit.bytes, totals.firstLoginVisit.gzipBytes].map((b) => kb(b).toFixed(1)),
    ],
  ],
  [2, 3],
);
const verdict = (key: keyof typeof BUDGETS_KB, what: string) =>
  `Budget: <= ${BUDGETS_KB[key]} KB gzip (level 9) for ${what}: ${kb(totals[key].gzipBytes).toFixed(1)} KB, ${within(key) ? 'pass' : 'FAIL'}.`;
console.log(`\n${verdict('entryAndModulepreload', 'the entry and modulepreloads of index.html')}`);
console.log(verdict('firstLoginVisit', 'all JS of a first /login visit'));

await writeJson(join(resultsDir, 'web.json'), {
  date: new Date().toISOString(),
  node: process.version,
  browser: `Chromium ${browserVersion}`,
  budgetsKb: BUDGETS_KB,
  gzipLevel: 9,
  route: '/login',
  totals: Object.fromEntries(Object.entries(totals).map(([k, t]) => [k, { ...t, kb: kb(t.bytes), gzipKb: kb(t.gzipBytes) }])),
  files: files.map((f) => ({ ...f, loadedBy: inHtml(f) ? 'index.html' : 'lazy', kb: kb(f.bytes), gzipKb: kb(f.gzipBytes) })),
  pass,
});
console.log(`Wrote bench/results/web.json in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
process.exit(pass ? 0 : 1);
