import type { ApiAnswer, Context, Route } from '../api-route';
import type { CallUpdate } from '../events';
import { listPage } from '../paging';
import { accountPath } from '../representation';
import { INVALID_PARAMETER, INVALID_URL, invalidParameter, notFound } from '../twilio-errors';
import { isFinal } from './call-legs';
import { callResource } from './representation';

export const callRoutes: Route[] = [
  { pattern: /^\/Calls\.json$/, methods: { GET: listCalls } },
  { pattern: /^\/Calls\/([^/]+)\.json$/, methods: { GET: fetchCall, POST: updateCall } },
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

/**
 * Changes a call under way: `Status=completed` hangs it up, `Status=canceled` ends it while it has not
 * been answered (and leaves an answered call alone); `Twiml` or `Url` makes it carry out other TwiML at
 * once (ringing legs are canceled). The voice part acts on it; the answer shows the call as it was
 * asked. Twilio refuses to redirect an ended call with 21220.
 * https://www.twilio.com/docs/voice/api/call-resource#update-a-call-resource
 */
function updateCall({ account, events, request, sid }: Context): ApiAnswer {
  const call = account.calls.find((c) => c.sid === sid);
  if (!call) throw notFound(request.path);
  const form = request.form;
  const status = form.get('Status');
  const twiml = form.get('Twiml');
  const url = form.get('Url');
  const method = (form.get('Method') ?? 'POST').toUpperCase();
  if (status !== null && status !== 'completed' && status !== 'canceled')
    throw invalidParameter(INVALID_PARAMETER, `Status must be completed or canceled, not "${status}"`);
  if (url !== null && !/^https?:\/\/[^/]/.test(url)) throw invalidParameter(INVALID_URL, `Url is not a valid URL: ${url}`);
  if (status === null && twiml === null && url === null)
    throw invalidParameter(INVALID_PARAMETER, 'Give Status, Twiml or Url to change the call');
  if (status === null && isFinal(call)) throw invalidParameter(21220, 'Call is not in-progress. Cannot redirect.');
  const update: CallUpdate =
    status !== null ? { status } : twiml !== null ? { twiml } : { url: url ?? '', method: method === 'GET' ? 'GET' : 'POST' };
  if (!isFinal(call)) events.emit('callUpdate', account, call, update);
  return { status: 200, body: callResource(account, call) };
}
