import { useEffect } from 'react';

export const APP_NAME = 'Switchboard';

/** Names the browser tab (and the history entry) after the page: 'Channels · Switchboard'. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);
}
