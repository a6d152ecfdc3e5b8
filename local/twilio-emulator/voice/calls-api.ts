import { listPage } from '../paging';
import { accountPath } from '../representation';
import type { ApiAnswer, Context, Route } from '../rest-api';
import { notFound } from '../twilio-errors';
import { callResource } from './representation';

export const callRoutes: Route[] = [
  { pattern: /^\/Calls\.json$/, methods: { GET: listCalls } },
  { pattern: /^\/Calls\/([^/]+)\.json$/, methods: { GET: fetchCall } },
];

const FILTERS = ['To', 'From', 'Status', 'ParentCallSid'] as const;

/** Calls and legs, newest first, as Twilio lists them; `To`, `From`, `Status` and `ParentCallSid` filter exactly. */
function listCalls({ account, request }: Context): ApiAnswer {
  const wanted = FILTERS.flatMap((name) => {
    const value = request.query.get(name);
    return value === null ? [] : [[name, value] as [string, string]];
  });
  const fieldOf = { To: 'to', From: 'from', Status: 'status', ParentCallSid: 'parentCallSid' } as const;
  const items = account.calls
    .filter((call) => wanted.every(([name, value]) => call[fieldOf[name as keyof typeof fieldOf]] === value))
    .reverse();
  return {
    status: 200,
    body: listPage({
      path: `${accountPath(account.sid)}/Calls.json`,
      key: 'calls',
      items,
      query: request.query,
      filters: wanted,
      represent: (call) => callResource(account, call),
    }),
  };
}

function fetchCall({ account, request, sid }: Context): ApiAnswer {
  const call = account.calls.find((c) => c.sid === sid);
  if (!call) throw notFound(request.path);
  return { status: 200, body: callResource(account, call) };
}
