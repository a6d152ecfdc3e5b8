import { rmSync } from 'node:fs';
import { logger } from './log';
import { localSettings } from './settings';

/** `npm run reset`: deletes the local data (stop `npm start` first). Keys are generated anew next start. */
const { dataDir } = localSettings();
rmSync(dataDir, { recursive: true, force: true });
logger('reset', 'gray').info(`Deleted ${dataDir}. The next npm start begins with an empty database.`);
