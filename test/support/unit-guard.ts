import { ChildProcess } from 'node:child_process';
import { Socket } from 'node:dgram';
import { Server } from 'node:net';

/**
 * The unit project's promise (vitest.config.ts): the product's modules alone, so it runs in seconds,
 * anywhere. A test that opens a port or starts a process fails here at once, saying where it belongs.
 */
const refuse = (what: string) => (): never => {
  throw new Error(
    `A unit test ${what}: list its file in AGAINST_STAND_INS (vitest.config.ts), which runs it in the stand-ins project.`,
  );
};
Server.prototype.listen = refuse('opened a port');
Socket.prototype.bind = refuse('opened a port');
// Where spawn, exec, execFile and fork all end (Node's child_process), though not declared.
(ChildProcess.prototype as unknown as { spawn: () => never }).spawn = refuse('started a process');
