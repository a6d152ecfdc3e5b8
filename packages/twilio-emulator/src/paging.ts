import { INVALID_PARAMETER, invalidParameter } from './twilio-errors';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

/**
 * One page of a list the way Twilio pages: `PageSize` (default 50, at most 1000), `Page` (a number
 * that is reported back) and `PageToken` (`PA<sid>`: the items after that one; `PB<sid>`: the page
 * before it). The URIs keep the list's filters and are relative, as Twilio's are.
 */
export function listPage<T extends { sid: string }, R>(options: {
  path: string;
  key: string;
  items: readonly T[];
  query: URLSearchParams;
  /** The filters of this list that the request used, in the order Twilio writes them. */
  filters: [string, string][];
  represent: (item: T) => R;
}) {
  const { key, represent } = options;
  const { slice, page, size, uri, nextToken, previousToken } = pageWindow(options);
  const start = page * size;
  return {
    [key]: slice.map(represent),
    page,
    page_size: size,
    start,
    end: slice.length ? start + slice.length - 1 : start,
    uri: uri(page, options.query.get('PageToken') ?? undefined),
    first_page_uri: uri(0),
    next_page_uri: nextToken ? uri(page + 1, nextToken) : null,
    previous_page_uri: previousToken ? uri(page - 1, previousToken) : null,
  };
}

/**
 * The same paging in the envelope of Twilio's newer APIs (messaging.twilio.com/v1): the items under
 * `key` and a `meta` with absolute URLs (`base` is the host they are served from).
 */
export function listPageV1<T extends { sid: string }, R>(options: {
  base: string;
  path: string;
  key: string;
  items: readonly T[];
  query: URLSearchParams;
  represent: (item: T) => R;
}) {
  const { base, key, represent } = options;
  const { slice, page, size, uri, nextToken, previousToken } = pageWindow({ ...options, filters: [] });
  return {
    [key]: slice.map(represent),
    meta: {
      page,
      page_size: size,
      first_page_url: base + uri(0),
      previous_page_url: previousToken ? base + uri(page - 1, previousToken) : null,
      url: base + uri(page, options.query.get('PageToken') ?? undefined),
      next_page_url: nextToken ? base + uri(page + 1, nextToken) : null,
      key,
    },
  };
}

function pageWindow<T extends { sid: string }>(options: {
  path: string;
  items: readonly T[];
  query: URLSearchParams;
  filters: [string, string][];
}) {
  const { path, items, query, filters } = options;
  const pageSize = integerParameter(query, 'PageSize', DEFAULT_PAGE_SIZE, 1);
  const page = integerParameter(query, 'Page', 0, 0);
  const token = query.get('PageToken') ?? undefined;

  // Larger pages are cut to the maximum rather than refused.
  const size = Math.min(pageSize, MAX_PAGE_SIZE);
  let from = page * size;
  let to = from + size;
  const tokenIndex = token ? items.findIndex((item) => item.sid === token.slice(2)) : -1;
  // A token whose item has gone (deleted since) falls back to the page number.
  if (token?.startsWith('PA') && tokenIndex >= 0) {
    from = tokenIndex + 1;
    to = from + size;
  } else if (token?.startsWith('PB') && tokenIndex >= 0) {
    from = Math.max(0, tokenIndex - size);
    to = tokenIndex;
  }
  const slice = items.slice(from, to);

  const uri = (pageNumber: number, pageToken?: string) => {
    const parameters = new URLSearchParams([...filters, ['PageSize', String(size)], ['Page', String(pageNumber)]]);
    if (pageToken) parameters.set('PageToken', pageToken);
    return `${path}?${parameters}`;
  };
  const first = slice[0];
  const last = slice.at(-1);
  return {
    slice,
    page,
    size,
    uri,
    nextToken: last && to < items.length ? `PA${last.sid}` : undefined,
    previousToken: first && page > 0 && from > 0 ? `PB${first.sid}` : undefined,
  };
}

function integerParameter(query: URLSearchParams, name: string, fallback: number, minimum: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(value) || value < minimum)
    throw invalidParameter(INVALID_PARAMETER, `${name} must be an integer of at least ${minimum}, not "${raw}"`);
  return value;
}
