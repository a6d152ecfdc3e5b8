/**
 * A green dot on the avatar's corner while the user has the app open (presence from the socket).
 * Decorative: the Last Active cell says Online in words. Rendered beside the avatar: its negative
 * margins put it on the corner and keep the name in place.
 */
export function OnlineStatus({ online }: { online: boolean }) {
  if (!online) return null;
  return (
    <span
      aria-hidden="true"
      title="Online"
      className="-mr-1 -ml-5 size-3 shrink-0 translate-y-3 rounded-full border-2 border-surface bg-success"
    />
  );
}
