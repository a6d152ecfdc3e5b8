import { type AccountRecord, type MessagingServiceRecord, messagingServiceOf, type PhoneNumberRecord } from './model';
import type { EmulatorStore } from './store';

/** `GET /`: every account and number with the URLs Twilio would call, and the way to the phone simulator. */
export function statusPage(store: EmulatorStore, url: string, signalling?: { url: string; registrations: string[] }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Twilio emulator</title>
<style>
  body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem; color: #1f2328; }
  h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid #d0d7de; vertical-align: top; }
  code { font-size: 12px; } .empty { color: #656d76; }
</style>
</head>
<body>
<h1>Twilio emulator</h1>
<p>REST API base URL: <code>${escapeHtml(url)}</code> (set as <code>TWILIO_API_BASE_URL</code>). Reload to see changes.</p>
${signalling ? signallingSection(signalling) : ''}
<p><a href="/phone">Phone simulator</a>: text or call any number below as an outside phone, answer the calls the product places to it, and follow it all live.</p>
${store.accounts.map(accountSection).join('\n')}
</body>
</html>
`;
}

/**
 * Where the Voice SDK connects, the page that trusts the emulator's certificate once opened, and the
 * identities whose devices are registered now.
 */
function signallingSection(signalling: { url: string; registrations: string[] }): string {
  const page = signalling.url.replace(/^wss:/, 'https:').replace(/\/signal$/, '/');
  const counts = new Map<string, number>();
  for (const identity of signalling.registrations) counts.set(identity, (counts.get(identity) ?? 0) + 1);
  const registered = [...counts].map(([identity, n]) => `${escapeHtml(identity)} (${n} device${n === 1 ? '' : 's'})`);
  return `<p>Voice SDK signalling: <code>${escapeHtml(signalling.url)}</code> (self-signed certificate: open
<a href="${escapeHtml(page)}">${escapeHtml(page)}</a> once and accept it, so the softphone can connect).
Registered: ${registered.length ? registered.join(', ') : '<span class="empty">no device</span>'}.</p>`;
}

function accountSection(account: AccountRecord): string {
  return `<section>
<h2>${escapeHtml(account.friendlyName)}${account.demo ? ' (demo)' : ''}</h2>
<p>Account SID <code>${account.sid}</code> · Auth token <code>${account.authToken}</code> ·
${account.applications.length} application(s) · ${account.keys.length} API key(s) · ${account.messages.length} message(s) ·
${account.calls.length} call(s) and leg(s) · ${account.recordings.length} recording(s)</p>
<table>
<thead><tr><th scope="col">Number</th><th scope="col">Name</th><th scope="col">Capabilities</th><th scope="col">Voice</th><th scope="col">SMS</th><th scope="col">Status callback</th><th scope="col">Messaging Service</th></tr></thead>
<tbody>
${account.numbers.map((number) => numberRow(account, number)).join('\n')}
</tbody>
</table>
${latestMedia(account)}
${latestRecordings(account)}
</section>`;
}

/** How many of the newest pictures and recordings the page lists (the account view has them all). */
const LATEST = 10;

/** Pictures texted to the account (inbound MMS), newest first; their content needs the account's credentials. */
function latestMedia(account: AccountRecord): string {
  const rows = account.messages
    .flatMap((message) => message.media.map((media) => ({ message, media })))
    .slice(-LATEST)
    .reverse()
    .map(
      ({ message, media }) =>
        `<tr><td><code>${media.sid}</code></td><td>${escapeHtml(media.contentType)}</td><td><code>${message.sid}</code></td><td>${escapeHtml(message.from)} → ${escapeHtml(message.to)}</td></tr>`,
    );
  if (rows.length === 0) return '';
  return `<p>Latest MMS media (content at <code>…/Messages/{MessageSid}/Media/{Sid}</code> with the account's credentials):</p>
<table><thead><tr><th scope="col">Media</th><th scope="col">Type</th><th scope="col">Message</th><th scope="col">From → to</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`;
}

/** Recordings `<Record>` made, newest first; their audio needs the account's credentials. */
function latestRecordings(account: AccountRecord): string {
  const rows = account.recordings
    .slice(-LATEST)
    .reverse()
    .map(
      (r) =>
        `<tr><td><code>${r.sid}</code></td><td><code>${r.callSid}</code></td><td>${r.status}</td><td>${r.status === 'in-progress' ? '…' : `${r.durationSeconds} s`}</td></tr>`,
    );
  if (rows.length === 0) return '';
  return `<p>Latest recordings (audio at <code>…/Recordings/{Sid}.wav</code> with the account's credentials):</p>
<table><thead><tr><th scope="col">Recording</th><th scope="col">Call</th><th scope="col">Status</th><th scope="col">Length</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`;
}

function numberRow(account: AccountRecord, number: PhoneNumberRecord): string {
  const service = messagingServiceOf(account, number.sid);
  const capabilities = Object.entries(number.capabilities)
    .filter(([, enabled]) => enabled)
    .map(([name]) => name.toUpperCase())
    .join(', ');
  return `<tr><td><code>${escapeHtml(number.phoneNumber)}</code></td><td>${escapeHtml(number.friendlyName)}</td><td>${capabilities}</td>
<td>${webhook(number.voiceUrl, number.voiceMethod, number.voiceApplicationSid)}</td>
<td>${webhook(number.smsUrl, number.smsMethod, number.smsApplicationSid)}</td>
<td>${webhook(number.statusCallback, number.statusCallbackMethod, '')}</td>
<td>${service ? serviceCell(service) : '<span class="empty">none</span>'}</td></tr>`;
}

/** Which URL texts to the number go to follows from the service's setting, so the page says so. */
function serviceCell(service: MessagingServiceRecord): string {
  const inbound = service.useInboundWebhookOnNumber
    ? "texts go to the number's SMS URL"
    : service.inboundRequestUrl
      ? `texts go to ${service.inboundMethod} <code>${escapeHtml(service.inboundRequestUrl)}</code>`
      : 'texts are dropped (no inbound URL)';
  return `${escapeHtml(service.friendlyName)} <code>${service.sid}</code><br>${inbound}`;
}

function webhook(url: string, method: string, applicationSid: string): string {
  if (applicationSid) return `application <code>${escapeHtml(applicationSid)}</code>`;
  return url ? `${method} <code>${escapeHtml(url)}</code>` : '<span class="empty">not set</span>';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
