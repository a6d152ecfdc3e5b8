import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder, ROOT } from './repository-files';

/**
 * Two rules of docs/architecture.md §7 that a reader meets in every file: no import climbs more than
 * two folders (docs/architecture.md: Imports), and nothing cites an issue number in place of a reason
 * or a document (docs/architecture.md: Citing the documents). Files only: no port, no process.
 */

const THIS_FILE = 'test/docs/source-rules.test.ts';

/**
 * A module specifier climbing three folders or more: after `from`, a side-effect `import`,
 * `import(…)`, `require(…)`, or vitest's module helpers (`vi.mock(…)` and its kin).
 */
const CLIMBING_IMPORT =
  /(?:\bfrom\s*|\bimport\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bvi\s*\.\s*(?:mock|doMock|unmock|doUnmock|importActual|importMock)\s*(?:<[^>()]*>)?\s*\(\s*)(['"`])((?:\.\.\/){3,}[^'"`\n]*)\1/g;

/** "issue 28", "Issue #28", "(issue 31)", "issues 21 and 27", "issue 29's". */
const ISSUE_NUMBER = /\bissues?\s*#?\d+/gi;

/** Each match of `pattern` in `text`, as `line: what matched`. */
function linesMatching(text: string, pattern: RegExp, pick: (match: RegExpMatchArray) => string): string[] {
  return [...text.matchAll(pattern)].map((match) => `${text.slice(0, match.index).split('\n').length}: ${pick(match)}`);
}

const climbingImportsIn = (source: string) => linesMatching(source, CLIMBING_IMPORT, (match) => match[2] as string);
const issueNumbersIn = (text: string) => linesMatching(text, ISSUE_NUMBER, (match) => match[0]);

describe('reading the rules', () => {
  it('finds a specifier climbing three folders in every form an import takes, and nothing else', () => {
    const source = [
      "import { db } from '../../../functions/lib/db';",
      "export * from '../../../../shared/constants';",
      "import '../../../styles.css';",
      "const lazy = () => import('../../../lib/realtime/realtime');",
      "vi.mock('../../../lib/realtime/realtime', () => import('../../../test-realtime'));",
      "import { ok } from '../../lib/ok';",
      "import { alias } from '@shared/contract/route';",
      "const root = new URL('../../../', import.meta.url);",
    ].join('\n');
    expect(climbingImportsIn(source)).toEqual([
      '1: ../../../functions/lib/db',
      '2: ../../../../shared/constants',
      '3: ../../../styles.css',
      '4: ../../../lib/realtime/realtime',
      '5: ../../../lib/realtime/realtime',
      '5: ../../../test-realtime',
    ]);
  });

  it('finds an issue number however a comment or a test name writes it', () => {
    const source = [
      '// Voicemail (issue 28): the greeting.',
      "describe('ConversationsPage team inbox (Issue #27)', () => {});",
      " * issues 21 and 27; issue 29's lifecycle",
      '// A tissue 3 ply, an issue tracker, docs/product.md §9.',
    ].join('\n');
    expect(issueNumbersIn(source)).toEqual(['1: issue 28', '2: Issue #27', '3: issues 21', '3: issue 29']);
  });
});

describe('the repository', () => {
  const files = filesUnder('').filter((path) => path !== THIS_FILE);
  const sources = files.filter((path) => /\.[cm]?[jt]sx?$/.test(path));
  const documents = files.filter((path) => path.endsWith('.md'));

  it('has no import that climbs more than two folders: it uses an alias of tsconfig.json instead', () => {
    const climbing = sources.flatMap((path) =>
      climbingImportsIn(readFileSync(join(ROOT, path), 'utf8')).map((found) => `${path}:${found}`),
    );
    expect(sources.length).toBeGreaterThan(500);
    expect(climbing).toEqual([]);
  });

  it('cites no issue number in a comment, a test name or a document', () => {
    const citing = [...sources, ...documents].flatMap((path) =>
      issueNumbersIn(readFileSync(join(ROOT, path), 'utf8')).map((found) => `${path}:${found}`),
    );
    expect(citing).toEqual([]);
  });
});
