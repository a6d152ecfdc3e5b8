import { health } from '@shared/contract/system';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(health, async () => ({ data: { status: 'ok' as const } }));
