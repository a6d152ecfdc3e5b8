import { useSyncExternalStore } from 'react';
import { session } from '../lib/services';

export function useSession() {
  return useSyncExternalStore(session.subscribe, session.get);
}
