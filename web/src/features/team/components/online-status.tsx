import { useOnlineUsers } from '../../../lib/realtime/realtime';

/**
 * A green dot on the avatar's corner while the user has the app open (presence from the socket).
 * Rendered beside the avatar: its negative margins put it on the corner and keep the name in place.
 */
export function OnlineStatus({ userId }: { userId: string }) {
  const online = useOnlineUsers().some((u) => u.id === userId);
  if (!online) return null;
  return (
    <span title="Online" className="-mr-1 -ml-5 size-3 shrink-0 translate-y-3 rounded-full border-2 border-surface bg-success">
      <span className="sr-only">Online</span>
    </span>
  );
}
