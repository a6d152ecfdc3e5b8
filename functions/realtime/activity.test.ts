import { describe, expect, it } from 'vitest';
import { beatRecordsActivity } from './activity';

const at = (time: string) => Date.parse(`2026-03-01T10:${time}Z`);

describe('beatRecordsActivity', () => {
  it('records a socket’s first beat, then one beat in each minute', () => {
    expect(beatRecordsActivity({ first: true, previousSeenAt: at('00:40') }, at('00:45'))).toBe(true);
    expect(beatRecordsActivity({ first: false, previousSeenAt: at('00:10') }, at('00:40'))).toBe(false);
    expect(beatRecordsActivity({ first: false, previousSeenAt: at('00:40') }, at('01:10'))).toBe(true);
    expect(beatRecordsActivity({ first: false, previousSeenAt: at('01:10') }, at('01:40'))).toBe(false);
    expect(beatRecordsActivity({ first: false, previousSeenAt: undefined }, at('01:40'))).toBe(true);
  });

  it('beating every 30 seconds for ten minutes tries ten writes, not twenty', () => {
    let previous = at('00:07');
    let writes = 0;
    for (let beat = 1; beat <= 20; beat++) {
      const now = previous + 30_000;
      if (beatRecordsActivity({ first: false, previousSeenAt: previous }, now)) writes++;
      previous = now;
    }
    expect(writes).toBe(10);
  });
});
