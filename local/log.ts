import pc from 'picocolors';

type Colour = 'cyan' | 'magenta' | 'yellow' | 'green' | 'blue' | 'gray' | 'red';

/** Readable, coloured, prefixed log lines for the one terminal `npm start` runs in. */
export function logger(name: string, colour: Colour) {
  const prefix = pc[colour](`[${name}]`.padEnd(11));
  return {
    info: (line: string) => console.log(`${prefix} ${line}`),
    warn: (line: string) => console.log(`${prefix} ${pc.yellow(line)}`),
    error: (line: string) => console.error(`${prefix} ${pc.red(line)}`),
  };
}

export type Logger = ReturnType<typeof logger>;

/** A silent logger for tests, which assert on behaviour rather than on log lines. */
export const quietLogger: Logger = { info: () => {}, warn: () => {}, error: (line) => console.error(line) };
