import type { Page } from 'playwright-core';

/**
 * An init script for a page: its Notification is wrapped to record what the app shows (a headless
 * browser shows nothing), and its visibility is the test's to set: `hideTab(page, true)` sends the tab
 * to the background.
 */
export const CAPTURE_NOTIFICATIONS = () => {
  const notices: { title: string; body: string; onclick: (() => void) | null }[] = [];
  const Real = window.Notification;
  function Captured(this: { onclick: (() => void) | null; close: () => void }, title: string, options?: NotificationOptions) {
    this.onclick = null;
    this.close = () => {};
    notices.push(Object.assign(this, { title, body: options?.body ?? '' }));
  }
  Object.defineProperty(Captured, 'permission', { get: () => Real.permission });
  Object.assign(Captured, { requestPermission: () => Real.requestPermission() });
  Object.assign(window, { Notification: Captured, __notices: notices });
  let hidden = false;
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  Object.assign(window, {
    __hide(on: boolean) {
      hidden = on;
      document.dispatchEvent(new Event('visibilitychange'));
    },
  });
};

/** The notifications the page has shown so far (CAPTURE_NOTIFICATIONS), oldest first. */
export const shownNotifications = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { __notices: { title: string; body: string }[] }).__notices.map(({ title, body }) => ({ title, body })),
  );

/** Clicks the page's first notification, as the person would. */
export const clickFirstNotification = (page: Page) =>
  page.evaluate(() => {
    const [first] = (window as unknown as { __notices: { onclick: (() => void) | null }[] }).__notices;
    first?.onclick?.();
  });

export const hideTab = (page: Page, on: boolean) =>
  page.evaluate((value) => (window as unknown as { __hide(on: boolean): void }).__hide(value), on);
