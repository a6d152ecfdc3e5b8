/**
 * The Text action of a contact row, the contact dialog and the thread header (docs/product.md: New
 * conversation): an address the Conversations page reads, its New message dialog with the number filled
 * in. Features do not import each other; Call goes through the softphone's bridge, lib/place-call.ts.
 */

/** Conversations with New message open; `to` (E.164) fills in its number. */
export function newMessageHref(to?: string): string {
  const query = new URLSearchParams({ new: '1' });
  if (to) query.set('to', to);
  return `/conversations?${query}`;
}
