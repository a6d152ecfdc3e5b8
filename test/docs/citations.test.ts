import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder, ROOT } from './repository-files';

/**
 * Every citation of a document names a section that exists, and every link between the documents
 * resolves (docs/architecture.md: Citing the documents). Files only: no port, no process.
 */

const THIS_FILE = 'test/docs/citations.test.ts';

/** A heading as GitHub renders it: links as their text, no code or emphasis marks. */
const rendered = (heading: string) =>
  heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim();
/** GitHub's anchor of a heading (before a repeated one's `-1`, `-2`). */
const slugOf = (heading: string) =>
  rendered(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
/** A heading's section number and title: `10.2 Deleting a company` → `10.2`, `Deleting a company`. */
const numberOf = (heading: string) => /^(\d+(?:\.\d+)*)\.?\s+(.*)$/.exec(rendered(heading));
const comparable = (text: string) => rendered(text).toLowerCase().replace(/\s+/g, ' ');

interface Doc {
  headings: string[];
  anchors: Set<string>;
}

function parseDoc(markdown: string): Doc {
  const headings: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) headings.push(heading[1] as string);
  }
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const heading of headings) {
    const slug = slugOf(heading);
    const times = seen.get(slug) ?? 0;
    anchors.add(times ? `${slug}-${times}` : slug);
    seen.set(slug, times + 1);
  }
  return { headings, anchors };
}

/** Whether `doc` has the numbered section `number` (`7`, `2.14`). */
const hasNumber = (doc: Doc, number: string) => doc.headings.some((heading) => numberOf(heading)?.[1] === number);
/** Whether `doc` has a heading `title`, letter case aside, its number optional. */
const hasHeading = (doc: Doc, title: string) =>
  doc.headings.some(
    (heading) => comparable(heading) === comparable(title) || comparable(numberOf(heading)?.[2] ?? '') === comparable(title),
  );

/**
 * A citation: a document (README.md, docs/<name>.md, packages/<name>/README.md), then a numbered
 * section (` §7`, ` §2.14`, ` §4/§9`), a heading (`: Heading`, ending at `)`, `,`, `;`, `|`, `"`, a
 * backtick, a closing quote, a full stop not followed by a letter or digit, a comment's end or a line's end), an anchor
 * (`#heading`), or nothing (the whole document).
 */
const CITATION =
  /(?<![\w/.-])((?:docs\/[\w-]+|README|packages\/[\w-]+\/README)\.md)(?:#([\w-]+)|\s*§(\d+(?:\.\d+)*(?:\/§\d+(?:\.\d+)*)*)|: ([^\n)\];,|"`]+?)(?=[\n)\];,|"`]|'(?![a-z])|\.(?!\w)|\*\/|$))?/g;
/** A README named without its path: not a citation (another project's README, named with its project, is fine). */
const BARE_README = /(?<![\w/.-])README\b(?!\.md)/g;
const OTHER_PROJECTS_README = /twilio-voice\.js README/g;

interface Found {
  line: number;
  text: string;
  problem?: string;
}
type At = Found & { offset: number };

/**
 * A source's text with each comment's lines joined, so a citation may wrap: a line that continues a
 * comment (`* …`, `// …`) joins the one before with a space, any other line starts a new one.
 */
function joined(source: string) {
  let text = '';
  const starts: number[] = [];
  source.split('\n').forEach((line, index) => {
    const continues = /^\s*(\*(?!\/)|\/\/)/.test(line);
    const content = line.replace(/^\s*(\/\*\*?|\*(?!\/)|\/\/+)?\s*/, '');
    if (index > 0) text += continues ? ' ' : '\n';
    starts.push(text.length);
    text += content;
  });
  const lineAt = (offset: number) => {
    let line = 0;
    while (line + 1 < starts.length && (starts[line + 1] as number) <= offset) line++;
    return line + 1;
  };
  return { text, lineAt };
}

const docs = new Map<string, Doc | null>();
function docAt(path: string): Doc | null {
  if (!docs.has(path)) {
    const file = join(ROOT, path);
    docs.set(path, existsSync(file) ? parseDoc(readFileSync(file, 'utf8')) : null);
  }
  return docs.get(path) ?? null;
}

/** The citations in one source or document's text, each with what is wrong with it, if anything. */
function citationsIn(source: string, { bareReadme }: { bareReadme: boolean }): Found[] {
  const { text, lineAt } = joined(source);
  const found: At[] = [];
  for (const match of text.matchAll(CITATION)) {
    const [whole, path, anchor, numbers, heading] = match as unknown as [string, string, string?, string?, string?];
    const doc = docAt(path);
    const cite = (problem?: string) =>
      found.push({ offset: match.index, line: lineAt(match.index), text: whole.trim(), ...(problem ? { problem } : {}) });
    if (!doc) cite(`no document ${path}`);
    else if (anchor !== undefined && !doc.anchors.has(anchor)) cite(`no heading with the anchor #${anchor} in ${path}`);
    else if (numbers !== undefined) {
      const missing = numbers.split('/§').filter((number) => !hasNumber(doc, number));
      cite(missing.length ? `no section ${missing.map((n) => `§${n}`).join(', ')} in ${path}` : undefined);
    } else if (heading !== undefined && !hasHeading(doc, heading.trim())) cite(`no heading "${heading.trim()}" in ${path}`);
    else cite();
  }
  if (bareReadme) {
    const other = text.replace(OTHER_PROJECTS_README, (name) => ' '.repeat(name.length));
    for (const match of other.matchAll(BARE_README)) {
      found.push({
        offset: match.index,
        line: lineAt(match.index),
        text: text.slice(match.index, match.index + 40).split('\n')[0] as string,
        problem: 'a bare README: cite README.md or docs/<name>.md and the heading',
      });
    }
  }
  return found.sort((a, b) => a.offset - b.offset).map(({ offset: _, ...citation }) => citation);
}

/** The relative links of a document (`[text](target)`, outside code) that lead nowhere. */
function brokenLinksIn(path: string, markdown: string): string[] {
  const prose = markdown.replace(/^\s*(```|~~~)[\s\S]*?^\s*\1/gm, '').replace(/`[^`\n]*`/g, '');
  const broken: string[] = [];
  for (const [, target] of prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g) as IterableIterator<[string, string]>) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    const [file = '', anchor] = target.split('#') as [string, string?];
    const into = file ? posix.normalize(posix.join(posix.dirname(path), decodeURI(file))) : path;
    if (!existsSync(join(ROOT, into))) broken.push(`${path}: [${target}] → no file ${into}`);
    else if (anchor !== undefined && into.endsWith('.md') && !docAt(into)?.anchors.has(decodeURIComponent(anchor)))
      broken.push(`${path}: [${target}] → no heading with the anchor #${anchor} in ${into}`);
  }
  return broken;
}

describe('reading citations (docs/architecture.md: Citing the documents)', () => {
  it('gives each heading the anchor GitHub gives it', () => {
    const doc = parseDoc('# T\n## 10.2 Deleting a company\n## `npm start` and *you*\n```sh\n# not a heading\n```\n## T\n');
    expect([...doc.anchors]).toEqual(['t', '102-deleting-a-company', 'npm-start-and-you', 't-1']);
    expect(slugOf("DynamoDB's transaction conflicts")).toBe('dynamodbs-transaction-conflicts');
  });

  it('ends a heading at the end of its clause, and may wrap across comment lines', () => {
    const source = [
      '/**',
      ' * Retention (docs/product.md: Message retention), deleting (docs/product.md:',
      ' * Deleting a company). Tokens: docs/deploy.md: The access-token signing key.',
      ' */',
      "it('docs/operations.md: Alarms and logs', () => {});",
      "// docs/local-stack.md: DynamoDB's transaction conflicts",
      'const x = 1; // docs/product.md §7.8/§9 and docs/architecture.md §3 and docs/testing.md',
    ].join('\n');
    expect(citationsIn(source, { bareReadme: true })).toEqual([
      { line: 2, text: 'docs/product.md: Message retention' },
      { line: 2, text: 'docs/product.md: Deleting a company' },
      { line: 3, text: 'docs/deploy.md: The access-token signing key' },
      { line: 5, text: 'docs/operations.md: Alarms and logs' },
      { line: 6, text: "docs/local-stack.md: DynamoDB's transaction conflicts" },
      { line: 7, text: 'docs/product.md §7.8/§9' },
      { line: 7, text: 'docs/architecture.md §3' },
      { line: 7, text: 'docs/testing.md' },
    ]);
  });

  it('names what a citation lacks', () => {
    const source = '// README: Deploy (docs/deploy.md: Deploying it; docs/product.md §11; docs/nowhere.md; README.md#nope)';
    expect(citationsIn(source, { bareReadme: true }).map((found) => found.problem)).toEqual([
      'a bare README: cite README.md or docs/<name>.md and the heading',
      'no heading "Deploying it" in docs/deploy.md',
      'no section §11 in docs/product.md',
      'no document docs/nowhere.md',
      'no heading with the anchor #nope in README.md',
    ]);
  });
});

describe('the repository', () => {
  const files = filesUnder('');
  const sources = files.filter((path) => /\.tsx?$/.test(path) && path !== THIS_FILE);
  const documents = files.filter((path) => path.endsWith('.md'));

  it('cites only sections that exist, in README.md and docs/', () => {
    const wrong = [
      ...sources.flatMap((path) =>
        citationsIn(readFileSync(join(ROOT, path), 'utf8'), { bareReadme: true }).map((found) => ({ path, ...found })),
      ),
      ...documents.flatMap((path) =>
        citationsIn(readFileSync(join(ROOT, path), 'utf8'), { bareReadme: false }).map((found) => ({ path, ...found })),
      ),
    ].flatMap(({ path, line, text, problem }) => (problem ? [`${path}:${line}: ${text} — ${problem}`] : []));
    expect(wrong).toEqual([]);
  });

  it('has citations to check', () => {
    const all = sources.flatMap((path) => citationsIn(readFileSync(join(ROOT, path), 'utf8'), { bareReadme: false }));
    expect(all.length).toBeGreaterThan(100);
  });

  it('links between the documents to files and headings that exist', () => {
    expect(documents).toContain('README.md');
    expect(documents.flatMap((path) => brokenLinksIn(path, readFileSync(join(ROOT, path), 'utf8')))).toEqual([]);
  });
});
