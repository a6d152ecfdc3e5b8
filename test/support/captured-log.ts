import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import { type Logger, quietLogger } from '../../local/log';

const LEVELS = ['log', 'info', 'warn', 'error', 'debug'] as const;

/**
 * Everything the product logs while the integration stack runs, in one file: what its handlers write
 * to the console (in Lambda that is CloudWatch Logs) and the gateway's request lines (API Gateway's
 * access log). The Twilio emulator, the SES emulator and DynamoDB Local are not the product and stay
 * quiet. The console keeps printing as before; the file only adds a copy.
 */
export function captureProductLog() {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-log-'));
  const file = join(dir, 'product.log');
  // Opened once: a line a request, each appended by path, was an open and a close a request.
  const fd = openSync(file, 'a');
  let open = true;
  const write = (line: string) => {
    if (open) writeSync(fd, `${line}\n`);
  };
  const originals = LEVELS.map((level) => [level, console[level]] as const);
  for (const [level, original] of originals) {
    console[level] = (...args: unknown[]) => {
      write(format(...args));
      original.apply(console, args);
    };
  }
  const log = (name: string): Logger => {
    if (name === 'gateway')
      return { info: (line) => write(`[gateway] ${line}`), warn: (line) => write(`[gateway] ${line}`), error: quietLogger.error };
    // The functions' own console, from their environments (local/function-environments.ts): through the console above.
    if (name === 'functions')
      return { info: (line) => console.log(line), warn: (line) => console.warn(line), error: (line) => console.error(line) };
    return quietLogger;
  };
  return {
    file,
    log,
    stop: () => {
      for (const [level, original] of originals) console[level] = original;
      open = false;
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
