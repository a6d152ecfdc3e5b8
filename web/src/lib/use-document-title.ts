import { useEffect } from 'react';

export const APP_NAME = 'Switchboard';

/** The page's own title and the shell's prefix (the unread count): the tab shows both. */
let pageTitle = '';
let prefix = '';
const write = () => {
  document.title = `${prefix}${pageTitle ? `${pageTitle} · ${APP_NAME}` : APP_NAME}`;
};

/** Names the browser tab (and the history entry) after the page: 'Channels · Switchboard'. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    pageTitle = title;
    write();
  }, [title]);
}

/** What every page's title starts with while signed in: '(3) ' for three unread conversations, '' for none. */
export function useDocumentTitlePrefix(value: string) {
  useEffect(() => {
    prefix = value;
    write();
    return () => {
      prefix = '';
      write();
    };
  }, [value]);
}
