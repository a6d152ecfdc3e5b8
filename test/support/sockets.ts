import { keys } from '../../functions/lib/table';
import { type Account, stack } from './api';
import { itemsUnder } from './table';

const connectionItems = (account: Account) => itemsUnder(keys.connectionsOf(account.company.id));

/**
 * Closes the user's open sockets from the server side, as API Gateway's DeleteConnection does, and
 * answers how many were open (an entry whose socket has just gone answers 410 and is not counted).
 */
export async function closeSocketsOf(account: Account): Promise<number> {
  let closed = 0;
  for (const item of (await connectionItems(account)).filter((i) => i.userId === account.user.id)) {
    const res = await fetch(`${stack().urls.api}/@connections/${item.connectionId}`, { method: 'DELETE' });
    if (res.status === 204) closed++;
  }
  return closed;
}

/** How many sockets of the account's company the registry holds. */
export async function socketCount(account: Account): Promise<number> {
  return (await connectionItems(account)).length;
}
