import { TWILIO_MAX_BODY_LENGTH } from '../messaging/segments';

/**
 * `GET /phone`: the phone simulator. Plain HTML and JavaScript served by the emulator (no build step,
 * nothing loaded from elsewhere): a person picks or types their phone number and one of the
 * accounts' numbers, texts or calls it, answers the calls the product places to the phone, hangs up,
 * presses digits, and follows it all live through the Server-Sent Events of `/_emulator/phone/events`.
 * On a call it placed or answered the page is a WebRTC peer of the emulator (`/_emulator/phone/media`):
 * it sends the microphone when the browser allows it and plays what the call carries.
 * `?phone=+1…&number=+1…` preselects both.
 */
export function phonePage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Phone simulator · Twilio emulator</title>
<style>
  :root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --line: #d0d7de;
    --mine: #0b5cad; --mine-fg: #ffffff; --theirs: #eef1f4; --bad: #b3261e; --focus: #0969da; }
  @media (prefers-color-scheme: dark) {
    :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9da7b3; --line: #3d444d; --mine: #1f6feb; --mine-fg: #ffffff;
      --theirs: #21262d; --bad: #ff8a80; --focus: #58a6ff; }
  }
  * { box-sizing: border-box; }
  body { font: 16px/1.45 system-ui, sans-serif; margin: 0; background: var(--bg); color: var(--fg); }
  main { max-width: 40rem; margin: 0 auto; padding: 1rem; display: flex; flex-direction: column; gap: 1rem; min-height: 100vh; }
  h1 { font-size: 1.3rem; margin: 0; } h2 { font-size: 1rem; margin: 0; }
  a { color: var(--focus); }
  .fields { display: grid; grid-template-columns: 1fr 1fr; gap: .75rem; }
  @media (max-width: 520px) { .fields { grid-template-columns: 1fr; } }
  label { display: block; font-weight: 600; margin-bottom: .25rem; }
  .hint { color: var(--muted); font-size: .875rem; margin: .25rem 0 0; }
  input, select, textarea, button { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--muted);
    border-radius: 6px; padding: .5rem .6rem; width: 100%; min-height: 44px; }
  textarea { resize: vertical; min-height: 4.5rem; }
  button { background: var(--mine); color: var(--mine-fg); border-color: var(--mine); font-weight: 600; cursor: pointer; }
  button:disabled { opacity: .6; cursor: progress; }
  :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
  .thread { flex: 1; border: 1px solid var(--line); border-radius: 8px; padding: .75rem; overflow-y: auto; min-height: 12rem; }
  ol { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: .6rem; }
  li { max-width: 85%; display: flex; flex-direction: column; }
  li.sent { align-self: flex-end; align-items: flex-end; text-align: right; } li.received { align-self: flex-start; }
  .text { padding: .5rem .75rem; border-radius: 14px; white-space: pre-wrap; overflow-wrap: anywhere; }
  .sent .text { background: var(--mine); color: var(--mine-fg); } .received .text { background: var(--theirs); }
  .meta { color: var(--muted); font-size: .8rem; margin-top: .15rem; }
  .pictures { display: flex; flex-wrap: wrap; gap: .25rem; margin-bottom: .25rem; }
  .pictures img { max-width: 160px; max-height: 160px; border-radius: 10px; border: 1px solid var(--muted); }
  .pictures .file { font-size: .85rem; color: var(--muted); }
  .meta.bad, #problem { color: var(--bad); }
  .empty { color: var(--muted); }
  form.compose { display: grid; grid-template-columns: 1fr auto; gap: .5rem; align-items: end; }
  form.compose button { width: auto; padding: .5rem 1.25rem; }
  .counter { grid-column: 1 / -1; margin: 0; }
  .call { border: 1px solid var(--line); border-radius: 8px; padding: .75rem; display: grid; gap: .5rem; }
  .call p { margin: 0; }
  .call-line { display: flex; justify-content: space-between; gap: .5rem; font-weight: 600; }
  .call-buttons { display: flex; gap: .5rem; flex-wrap: wrap; }
  .call-buttons button { width: auto; padding: .5rem 1.25rem; }
  button.danger { background: var(--bad); border-color: var(--bad); color: #ffffff; }
  .keypad { display: grid; grid-template-columns: repeat(3, 1fr); gap: .35rem; max-width: 16rem; }
  .keypad button { background: var(--theirs); color: var(--fg); border-color: var(--line); }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
</style>
</head>
<body>
<main>
  <header>
    <h1>Phone simulator</h1>
    <p class="hint">Text or call a number of the Twilio emulator as an outside phone would, and answer the calls it places to you. <a href="/">Emulator status</a></p>
  </header>
  <div class="fields">
    <div>
      <label for="phone">Your number</label>
      <input id="phone" name="phone" type="tel" inputmode="tel" autocomplete="off" list="phones" aria-describedby="phone-hint" spellcheck="false">
      <datalist id="phones"><option value="+14155550199"></option><option value="+12025550142"></option><option value="+447700900123"></option></datalist>
      <p class="hint" id="phone-hint">E.164, for example +14155550199.</p>
    </div>
    <div>
      <label for="number">Switchboard number</label>
      <select id="number" name="number" aria-describedby="number-hint"></select>
      <p class="hint" id="number-hint">Every number of every emulator account, the demo account first.</p>
    </div>
  </div>
  <section class="call" aria-labelledby="call-title">
    <h2 id="call-title">Call</h2>
    <div class="call-line"><p id="call-status" role="status">No call.</p><p id="call-timer" aria-label="Call time"></p></div>
    <p class="hint" id="call-said"></p>
    <p class="hint" id="call-audio"></p>
    <audio id="call-sound" autoplay></audio>
    <div class="call-buttons">
      <button type="button" id="call">Call</button>
      <button type="button" id="answer" hidden>Answer</button>
      <button type="button" id="hangup" class="danger" hidden>Hang up</button>
    </div>
    <div class="keypad" id="keypad" role="group" aria-label="Keypad">
      ${[...'123456789*0#'].map((d) => `<button type="button" data-digit="${d}" disabled>${d}</button>`).join('')}
    </div>
  </section>
  <section class="thread" aria-labelledby="thread-title">
    <h2 id="thread-title" class="visually-hidden">Conversation</h2>
    <p class="empty" id="empty">No texts yet.</p>
    <div id="messages-log" role="log" aria-label="Conversation"><ol id="messages"></ol></div>
  </section>
  <p id="problem" role="alert"></p>
  <form class="compose" id="compose">
    <div>
      <label for="body">Message</label>
      <textarea id="body" name="body" maxlength="${TWILIO_MAX_BODY_LENGTH}" rows="3" aria-describedby="counter"></textarea>
    </div>
    <button type="submit" id="send">Send</button>
    <p class="hint counter" id="counter">Enter sends, Shift+Enter starts a new line.</p>
  </form>
</main>
<script>
(() => {
  const E164 = /^\\+[1-9]\\d{6,14}$/;
  const $ = (id) => document.getElementById(id);
  const phone = $('phone'), number = $('number'), list = $('messages'), empty = $('empty');
  const form = $('compose'), body = $('body'), send = $('send'), problem = $('problem'), counter = $('counter');
  const params = new URLSearchParams(location.search);
  const messages = new Map();
  const calls = new Map();
  const callStatus = $('call-status'), callTimer = $('call-timer'), callSaid = $('call-said');
  const callAudio = $('call-audio'), callSound = $('call-sound');
  const callButton = $('call'), answerButton = $('answer'), hangupButton = $('hangup'), keypad = $('keypad');
  const ENDED = new Set(['completed', 'busy', 'no-answer', 'failed', 'canceled']);
  const endedText = { completed: 'ended', busy: 'busy', 'no-answer': 'not answered', failed: 'failed', canceled: 'canceled' };
  let numbersByPhone = new Map();
  let source;
  /** The call's audio: the page's peer connection with the emulator, for one call at a time. */
  let media;

  const say = (text) => { problem.textContent = text; };
  const statusText = {
    queued: 'Queued', sending: 'Sending', sent: 'Sent', delivered: 'Delivered', undelivered: 'Undelivered', failed: 'Failed',
  };

  function describe(m) {
    if (m.direction !== 'inbound') {
      const error = m.errorCode ? ' (error ' + m.errorCode + (m.errorMessage ? ': ' + m.errorMessage : '') + ')' : '';
      return { text: 'Switchboard · ' + (statusText[m.status] || m.status) + error, bad: Boolean(m.errorCode) };
    }
    if (!m.webhook) return { text: 'You · Sent', bad: false };
    if (m.webhook.status === null) return { text: 'You · Switchboard did not answer (' + m.webhook.body + ')', bad: true };
    if (m.webhook.status >= 400) return { text: 'You · Switchboard answered ' + m.webhook.status, bad: true };
    return { text: 'You · Delivered to Switchboard', bad: false };
  }

  function render() {
    list.replaceChildren(...[...messages.values()].map((m) => {
      const item = document.createElement('li');
      item.className = m.direction === 'inbound' ? 'sent' : 'received';
      const text = document.createElement('span');
      text.className = 'text';
      text.textContent = m.body;
      // An MMS's pictures above its words (a text of pictures only has none).
      const pictures = document.createElement('span');
      pictures.className = 'pictures';
      (m.media || []).forEach((item, i) => {
        if (item.contentType.startsWith('image/')) {
          const img = document.createElement('img');
          img.src = item.url;
          img.alt = 'Picture ' + (i + 1) + ' of ' + m.media.length;
          pictures.append(img);
        } else {
          const file = document.createElement('a');
          file.className = 'file';
          file.href = item.url;
          file.textContent = 'Attachment (' + item.contentType + ')';
          pictures.append(file);
        }
      });
      const meta = document.createElement('span');
      const { text: about, bad } = describe(m);
      meta.className = bad ? 'meta bad' : 'meta';
      const time = new Date(m.dateCreated).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
      meta.textContent = about + ' · ' + time;
      if (pictures.childElementCount) item.append(pictures);
      if (m.body || !pictures.childElementCount) item.append(text);
      item.append(meta);
      return item;
    }));
    empty.hidden = messages.size > 0;
    const thread = list.closest('.thread');
    thread.scrollTop = thread.scrollHeight;
  }

  const clock = (ms) => {
    const seconds = Math.max(0, Math.floor(ms / 1000));
    return Math.floor(seconds / 60) + ':' + String(seconds % 60).padStart(2, '0');
  };

  /** The call under way, else the last one. */
  function currentCall() {
    const all = [...calls.values()];
    return all.filter((c) => !ENDED.has(c.status)).at(-1) || all.at(-1);
  }

  function renderCall() {
    const c = currentCall();
    const live = Boolean(c && !ENDED.has(c.status));
    const reachable = numbersByPhone.get(number.value);
    let state = 'No call.';
    let timer = '';
    if (c) {
      const since = (iso) => clock(Date.now() - Date.parse(iso));
      if (c.status === 'in-progress') { state = 'In call with ' + c.party; timer = since(c.answeredAt || c.dateCreated); }
      else if (live) { state = (c.kind === 'incoming' ? 'Incoming call from ' : 'Calling ') + c.party + ' · ringing'; timer = since(c.dateCreated); }
      else {
        state = 'Call with ' + c.party + ' ' + (endedText[c.status] || c.status);
        timer = c.answeredAt && c.endTime ? clock(Date.parse(c.endTime) - Date.parse(c.answeredAt)) : '';
      }
    }
    if (callStatus.textContent !== state) callStatus.textContent = state;
    callTimer.textContent = timer;
    callSaid.textContent = c && c.said.length ? 'Switchboard said: ' + c.said.join(' ') : '';
    callButton.disabled = live || !(reachable && reachable.voice);
    answerButton.hidden = !(live && c.kind === 'incoming' && c.status === 'ringing');
    hangupButton.hidden = !live;
    for (const key of keypad.querySelectorAll('button')) key.disabled = !(c && c.status === 'in-progress');
    send.disabled = !(reachable && reachable.sms);
  }
  setInterval(renderCall, 1000);

  /** Posts to the emulator; the answer when it succeeded, else undefined (and the problem is shown). */
  async function act(path, input) {
    say('');
    try {
      const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(input) });
      const answer = await res.json();
      if (!res.ok) say(answer.error || 'The emulator answered ' + res.status + '.');
      return res.ok ? answer : undefined;
    } catch {
      say('The emulator did not answer. Is npm start still running?');
      return undefined;
    }
  }

  /**
   * Joins the call's audio: the microphone when the browser grants it (else the page only listens),
   * one SDP offer with every candidate (no trickle), the emulator's answer, and the far end played.
   */
  async function startMedia(callSid) {
    stopMedia();
    const pc = new RTCPeerConnection();
    const current = { pc, callSid, stream: undefined };
    media = current;
    try {
      current.stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      callAudio.textContent = 'No microphone: you hear the call but the other side does not hear you.';
    }
    if (media !== current) { stopTracks(current); return; }
    if (current.stream) for (const track of current.stream.getAudioTracks()) pc.addTrack(track, current.stream);
    else pc.addTransceiver('audio', { direction: 'recvonly' });
    pc.addEventListener('track', (event) => { callSound.srcObject = event.streams[0] || new MediaStream([event.track]); });
    await pc.setLocalDescription(await pc.createOffer());
    if (pc.iceGatheringState !== 'complete') {
      await new Promise((resolve) => pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve()));
    }
    const answer = await act('/_emulator/phone/media', { callSid, sdp: pc.localDescription.sdp });
    if (media !== current) return;
    if (!answer) { stopMedia(); return; }
    await pc.setRemoteDescription({ type: 'answer', sdp: answer.sdp });
  }

  function stopTracks(m) {
    if (m.stream) for (const track of m.stream.getTracks()) track.stop();
  }

  function stopMedia() {
    if (!media) return;
    media.pc.close();
    stopTracks(media);
    media = undefined;
    callSound.srcObject = null;
    callAudio.textContent = '';
  }

  callButton.addEventListener('click', async () => {
    if (!E164.test(phone.value.trim())) { say('Your number must be in E.164, for example +14155550199.'); phone.focus(); return; }
    const call = await act('/_emulator/calls', { from: phone.value.trim(), to: number.value });
    if (call) startMedia(call.sid).catch(() => say('The call goes on without audio: the browser refused WebRTC.'));
  });
  answerButton.addEventListener('click', async () => {
    const c = currentCall();
    if (!c) return;
    const answered = await act('/_emulator/calls/' + c.sid + '/answer', { by: phone.value.trim() });
    if (answered) startMedia(c.sid).catch(() => say('The call goes on without audio: the browser refused WebRTC.'));
  });
  hangupButton.addEventListener('click', () => {
    const c = currentCall();
    if (c) act('/_emulator/calls/' + c.sid + '/hangup', {});
  });
  keypad.addEventListener('click', (event) => {
    const key = event.target.closest('button[data-digit]');
    const c = currentCall();
    if (key && c) act('/_emulator/calls/' + c.sid + '/digits', { digits: key.dataset.digit });
  });

  function follow() {
    stopMedia();
    if (source) source.close();
    source = undefined;
    messages.clear();
    calls.clear();
    render();
    renderCall();
    const from = phone.value.trim();
    if (!E164.test(from) || !number.value) return;
    localStorage.setItem('phone-simulator', JSON.stringify({ phone: from, number: number.value }));
    const query = new URLSearchParams({ phone: from, number: number.value });
    source = new EventSource('/_emulator/phone/events?' + query);
    source.addEventListener('conversation', (event) => {
      const data = JSON.parse(event.data);
      messages.clear();
      for (const m of data.messages) messages.set(m.sid, m);
      calls.clear();
      for (const c of data.calls) calls.set(c.sid, c);
      render();
      renderCall();
    });
    source.addEventListener('call', (event) => {
      const c = JSON.parse(event.data);
      calls.set(c.sid, c);
      if (media && media.callSid === c.sid && ENDED.has(c.status)) stopMedia();
      renderCall();
    });
    source.addEventListener('message', (event) => {
      const m = JSON.parse(event.data);
      messages.set(m.sid, m);
      render();
    });
  }

  async function loadNumbers() {
    const res = await fetch('/_emulator/phone/numbers');
    const { numbers } = await res.json();
    numbersByPhone = new Map(numbers.map((n) => [n.phoneNumber, n]));
    number.replaceChildren(...numbers.map((n) => {
      const option = document.createElement('option');
      option.value = n.phoneNumber;
      const can = [n.voice && 'calls', n.sms && 'texts'].filter(Boolean).join(' and ');
      option.textContent = n.phoneNumber + ' · ' + n.friendlyName + ' (' + n.accountName + ') · ' + can;
      return option;
    }));
    const saved = JSON.parse(localStorage.getItem('phone-simulator') || '{}');
    const wanted = params.get('number') || saved.number;
    if (wanted && numbers.some((n) => n.phoneNumber === wanted)) number.value = wanted;
    phone.value = params.get('phone') || saved.phone || '+14155550199';
    follow();
  }

  phone.addEventListener('change', () => {
    phone.value = phone.value.replace(/[\\s().-]/g, '');
    say(E164.test(phone.value) ? '' : 'Your number must be in E.164, for example +14155550199.');
    phone.setAttribute('aria-invalid', String(!E164.test(phone.value)));
    follow();
  });
  number.addEventListener('change', follow);

  body.addEventListener('input', () => {
    counter.textContent = body.value.length > 1400 ? body.value.length + ' of ${TWILIO_MAX_BODY_LENGTH} characters.' : 'Enter sends, Shift+Enter starts a new line.';
  });
  body.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = body.value;
    if (!text.trim()) { say('Type a message first.'); body.focus(); return; }
    if (!E164.test(phone.value.trim())) { say('Your number must be in E.164, for example +14155550199.'); phone.focus(); return; }
    send.disabled = true;
    say('');
    try {
      const res = await fetch('/_emulator/messages', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ from: phone.value.trim(), to: number.value, body: text }),
      });
      const answer = await res.json();
      if (!res.ok) { say(answer.error || 'The emulator answered ' + res.status + '.'); return; }
      messages.set(answer.sid, messages.get(answer.sid) || { sid: answer.sid, direction: 'inbound', body: text, status: 'received', dateCreated: new Date().toISOString(), webhook: answer.webhook });
      render();
      body.value = '';
      body.dispatchEvent(new Event('input'));
    } catch {
      say('The emulator did not answer. Is npm start still running?');
    } finally {
      renderCall();
      body.focus();
    }
  });

  loadNumbers().catch(() => say('Could not load the numbers of the emulator.'));
})();
</script>
</body>
</html>
`;
}
