import { MANAGERS } from '@shared/contract/route';
import { useSession } from './use-session';

/** Whether the signed-in user may change the company's settings (the server checks it again). */
export function useCanManage(): boolean {
  const role = useSession()?.user.role;
  return role !== undefined && (MANAGERS as readonly string[]).includes(role);
}
