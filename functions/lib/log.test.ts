import { afterEach, describe, expect, it, vi } from 'vitest';
import { logError, logWarning } from './log';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/**
 * In Lambda (JSON log format, set by the stack) the runtime adds time, level and request id and keeps
 * an object it is given as JSON under `message`; a string would stay a string there, its fields not
 * queryable. Elsewhere each line is a JSON object of its own.
 */
describe('log lines', () => {
  it('hand Lambda the fields as an object when the function logs in JSON', () => {
    vi.stubEnv('AWS_LAMBDA_LOG_FORMAT', 'JSON');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    logWarning({ event: 'webhook_signature_refused', webhookId: 'w1' });
    logError({ route: 'GET /x' }, new TypeError('broken'));
    expect(warn).toHaveBeenCalledWith({ event: 'webhook_signature_refused', webhookId: 'w1' });
    expect(error).toHaveBeenCalledWith({
      route: 'GET /x',
      error: { name: 'TypeError', message: 'broken', stack: expect.stringContaining('TypeError: broken') },
    });
  });

  it('write one JSON line with level and time elsewhere', () => {
    vi.stubEnv('AWS_LAMBDA_LOG_FORMAT', '');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    logWarning({ event: 'webhook_signature_refused', webhookId: 'w1' });
    const line = warn.mock.calls[0]?.[0];
    expect(typeof line).toBe('string');
    expect(JSON.parse(line as string)).toEqual({
      level: 'warn',
      time: expect.any(String),
      event: 'webhook_signature_refused',
      webhookId: 'w1',
    });
  });
});
