/** Where the emulator writes what it does: the host (`npm start`) passes its own coloured logger. */
export interface Logger {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

/** A silent logger for tests, which assert on behaviour rather than on log lines; errors still show. */
export const quietLogger: Logger = { info: () => {}, warn: () => {}, error: (line) => console.error(line) };
