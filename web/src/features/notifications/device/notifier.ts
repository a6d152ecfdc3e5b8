/**
 * Desktop notifications behind a small interface, so component tests inject a stand-in
 * (as the softphone's device wrapper is); `browserNotifier` is the real one over the Notification API.
 */
export type NotifierPermission = 'default' | 'granted' | 'denied' | 'unsupported';

export interface DesktopNotice {
  title: string;
  body: string;
  /** One notice per thing: a second one with the same tag replaces the first. */
  tag: string;
  /**
   * What a click does, when it does more than bring the tab back ('Answer'): said on the notice, which
   * then stays until acted on. A page's notice has no buttons of its own (only a service worker's has).
   */
  action?: string;
  onClick: () => void;
}

export interface Notifier {
  permission(): NotifierPermission;
  /** Asks the browser; only ever on the person's click (never on load). */
  requestPermission(): Promise<NotifierPermission>;
  show(notice: DesktopNotice): void;
  /** Takes back the notice of that tag, if it is still shown (a call that no longer rings). */
  close(tag: string): void;
  /** The tab is in the background (document.visibilityState): only then is a notice shown. */
  isHidden(): boolean;
  /** Brings the tab to the front (a notice was clicked). */
  focus(): void;
}

export function browserNotifier(win: Window & typeof globalThis = window): Notifier {
  const api: typeof Notification | undefined = 'Notification' in win ? win.Notification : undefined;
  const shown = new Map<string, Notification>();
  return {
    permission: () => (api ? api.permission : 'unsupported'),
    requestPermission: async () => (api ? api.requestPermission() : 'unsupported'),
    show({ title, body, tag, action, onClick }) {
      if (api?.permission !== 'granted') return;
      const notification = action
        ? new api(title, { body: `${body}\nClick to ${action.toLowerCase()}`, tag, requireInteraction: true })
        : new api(title, { body, tag });
      shown.set(tag, notification);
      notification.onclose = () => {
        if (shown.get(tag) === notification) shown.delete(tag);
      };
      notification.onclick = () => {
        onClick();
        notification.close();
      };
    },
    close(tag) {
      shown.get(tag)?.close();
      shown.delete(tag);
    },
    isHidden: () => win.document.visibilityState === 'hidden',
    focus: () => win.focus(),
  };
}
