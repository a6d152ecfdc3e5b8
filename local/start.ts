import { availableParallelism } from 'node:os';
import pc from 'picocolors';
import { MEMBER_REMOVAL_SWEEP_MINUTES } from '../shared/constants';
import { environmentLimits } from './function-environments';
import { logger } from './log';
import { StartupError } from './ports';
import { channelHealthIntervalMinutes, localSettings } from './settings';
import { startLocalStack } from './stack';

/** `npm start`: the whole product on this machine, no AWS account, no internet. Ctrl-C stops it all. */
const log = logger('switchboard', 'gray');
// Node 20 on this machine, Node 22 in Lambda: the SDK's upgrade notice would only be noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const started = Date.now();

/** How the functions run, in a line of the banner (docs/local-stack.md: Configuration). */
function functionsMode(settings: ReturnType<typeof localSettings>): string {
  if (settings.functions === 'in-process') return 'in this process, from the TypeScript source (LOCAL_FUNCTIONS=in-process)';
  const code =
    settings.handlers === 'bundled'
      ? 'from the deployed bundles (SWITCHBOARD_HANDLERS=bundled)'
      : 'from local bundles (SWITCHBOARD_HANDLERS=bundled for the deployed ones)';
  const limits = environmentLimits(availableParallelism(), {
    perFunction: settings.environmentsPerFunction,
    total: settings.environmentsTotal,
  });
  return `environments of their own, at most ${limits.perFunction} each and ${limits.total} in all, ${code}`;
}

try {
  const settings = localSettings();
  const healthMinutes = channelHealthIntervalMinutes();
  const stack = await startLocalStack({
    ...settings,
    persist: true,
    web: true,
    channelHealthIntervalMinutes: healthMinutes,
    memberRemovalSweepMinutes: MEMBER_REMOVAL_SWEEP_MINUTES,
    warmFunctions: settings.functions !== 'in-process',
  });
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: stopping every part…`);
    await stack.stop();
    log.info('stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const row = (name: string, url: string) => `  ${name.padEnd(22)} ${pc.cyan(url)}`;
  console.log(
    [
      '',
      pc.bold(pc.green(`Switchboard is running (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`)),
      row('Web app', stack.urls.web),
      row('API', `${stack.urls.api}/api/v1`),
      row('Health', `${stack.urls.api}/api/v1/health`),
      row('WebSocket', stack.urls.websocket),
      row('Mail (SES emulator)', stack.urls.mail),
      row('DynamoDB Local', stack.urls.dynamodb),
      row('  request counts', `${stack.urls.dynamodb}/_local/stats`),
      row('Pictures bucket (S3)', stack.urls.pictures),
      row('Twilio emulator', stack.urls.twilio),
      row('  demo Account SID', stack.twilioDemo.accountSid),
      row('  demo Auth Token', stack.twilioDemo.authToken),
      row('Phone simulator', stack.urls.phone),
      row('Voice SDK signalling', stack.urls.signalling),
      row('  trust certificate', `open ${stack.urls.signallingTrust} once and accept it`),
      row('Functions', functionsMode(settings)),
      row(
        '  warm-up',
        settings.functions === 'in-process'
          ? 'none: in-process functions have no cold starts'
          : 'each function started once in the background now, as provisioned concurrency would; later cold starts as in Lambda',
      ),
      row('Channel health checks', healthMinutes ? `every ${healthMinutes} min (CHANNEL_HEALTH_INTERVAL_MINUTES)` : 'off'),
      row('Data folder', settings.dataDir),
      '',
      pc.dim('  Ctrl-C stops everything. `npm run reset` deletes the local data.'),
      '',
    ].join('\n'),
  );
} catch (error) {
  if (error instanceof StartupError || (error instanceof Error && /must be a port number/.test(error.message))) {
    log.error(error.message);
  } else {
    log.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exit(1);
}
