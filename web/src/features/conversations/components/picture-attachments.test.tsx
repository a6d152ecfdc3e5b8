import { MAX_PICTURE_BYTES, PICTURE_URL_SECONDS } from '@shared/constants';
import type { Conversation, ConversationDetail, Message, PictureUpload, SendingNumber } from '@shared/contract/conversations';
import type { PictureBlock } from '@shared/pictures';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  bytes,
  endpoints,
  fail,
  isCall,
  json,
  ok,
  type Recorded,
  renderWithProviders,
  signInAs,
  stubObjectUrls,
  stubServer,
  urlOf,
} from '@/test-utils';
import { ConversationsPage } from './conversations-page';

/**
 * docs/product.md: Pictures out, in the web app: the composer and New message attach, upload and send
 * pictures; the thread shows sent ones. The API is the stub server of the other page tests; the bucket
 * the browser PUTs the bytes to is a stand-in XMLHttpRequest (FakeBucket), whose progress and refusals
 * the tests play.
 */

const picture = (name: string, type = 'image/jpeg', size = 2048) => new File([new Uint8Array(size)], name, { type });

/** One PUT the app sent to an upload URL. */
class BucketRequest {
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  status = 0;
  aborted = false;
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
    bucket.requests.push(this);
    if (bucket.answer !== 'held') queueMicrotask(() => this.finish(bucket.answer === 'refuse' ? 403 : 200));
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  /** The share of the body sent so far, as the browser reports it. */
  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent));
  }
  finish(status: number) {
    act(() => {
      this.status = status;
      this.onload?.();
    });
  }
}

/** The bucket: what was PUT, and how it answers (at once, held for the test, or refused). */
const bucket = { requests: [] as BucketRequest[], answer: 'ok' as 'ok' | 'held' | 'refuse' };

function stubBucket(answer: typeof bucket.answer = 'ok') {
  bucket.requests = [];
  bucket.answer = answer;
  vi.stubGlobal('XMLHttpRequest', BucketRequest);
}

const CONTACT = '+14155550201';
const CHANNEL = '+14155550101';

const conversation: Conversation = {
  id: 'cv-1',
  status: 'OPEN',
  contact: { id: 'ct-1', name: '', phoneNumber: CONTACT },
  channel: { id: 'ch-1', identifier: CHANNEL },
  lastMessage: { direction: 'INBOUND', body: 'Can you see it?' },
  lastMessageAt: new Date().toISOString(),
  messageCount: 1,
  optedOut: false,
  createdAt: new Date().toISOString(),
  assignee: null,
  unreadCount: 0,
};

let messageSeq = 0;
function message(over: Partial<Message> = {}): Message {
  messageSeq += 1;
  return {
    id: `m-${messageSeq}`,
    conversationId: 'cv-1',
    type: 'SMS',
    mentions: [],
    media: [],
    direction: 'INBOUND',
    body: 'Can you see it?',
    status: 'RECEIVED',
    createdAt: new Date(Date.UTC(2026, 0, 1, 10, messageSeq)).toISOString(),
    sentBy: null,
    smsMessage: { providerStatus: null, providerMessageId: `SM${messageSeq}`, segments: 1, errorCode: null, errorMessage: null },
    ...over,
  };
}

const SUPPORT: SendingNumber = { channelId: 'ch-1', phoneNumber: CHANNEL, mms: true, inboxName: 'Support' };

interface Options {
  picturesBlockedBy?: PictureBlock | null;
  messages?: Message[];
  numbers?: SendingNumber[];
  /** Answers a send (the thread's or New message's) instead of accepting it. */
  refuseSend?: (r: Recorded) => Response | undefined;
  /** Answers an upload request instead of granting it. */
  refuseUpload?: (r: Recorded) => Response | undefined;
}

/**
 * The routes the page reads, the upload route (an upload per request, valid PICTURE_URL_SECONDS from
 * the clock at that moment), sends that keep the pictures they name, and the media route.
 */
function server(options: Options = {}) {
  let uploads = 0;
  const messages = [...(options.messages ?? [message()])];
  return stubServer((r) => {
    if (isCall(r, endpoints.listConversations)) {
      return ok({ conversations: [conversation], total: 1, pagination: { total: 1, limit: 20, offset: 0, nextCursor: null } });
    }
    if (isCall(r, endpoints.listChannels)) return ok({ channels: [] });
    if (isCall(r, endpoints.listUsers)) return ok({ users: [] });
    if (isCall(r, endpoints.markConversationRead)) return ok({ conversation });
    if (isCall(r, endpoints.getConversation, { id: 'cv-1' })) {
      const detail: ConversationDetail = {
        ...conversation,
        members: [],
        sendingBlockedBy: null,
        picturesBlockedBy: options.picturesBlockedBy ?? null,
        messages,
        olderCursor: null,
      };
      return ok({ conversation: detail });
    }
    if (isCall(r, endpoints.createPictureUpload)) {
      const refused = options.refuseUpload?.(r);
      if (refused) return refused;
      uploads += 1;
      const { contentType } = r.body as { contentType: string };
      const upload: PictureUpload = {
        id: `up-${uploads}`,
        url: `https://pictures.example/upload/${uploads}?signature=s${uploads}`,
        headers: { 'Content-Type': contentType },
        expiresAt: new Date(Date.now() + PICTURE_URL_SECONDS * 1000).toISOString(),
      };
      return ok({ upload }, 201);
    }
    if (isCall(r, endpoints.sendMessage, { id: 'cv-1' })) {
      const refused = options.refuseSend?.(r);
      if (refused) return refused;
      const { body, pictureIds = [] } = r.body as { body: string; pictureIds?: string[] };
      const id = `m-sent-${messages.length}`;
      const sent = message({
        id,
        direction: 'OUTBOUND',
        body,
        status: 'QUEUED',
        media: pictureIds.map((_, index) => ({
          contentType: 'image/jpeg',
          url: urlOf(endpoints.messageMedia, { id: 'cv-1', messageId: id, index: String(index) }),
        })),
      });
      messages.push(sent);
      return ok({ message: sent }, 201);
    }
    if (isCall(r, endpoints.messageMedia)) return bytes('image/jpeg');
    if (isCall(r, endpoints.listSendingNumbers)) return ok({ sendingNumbers: options.numbers ?? [SUPPORT] });
    if (isCall(r, endpoints.startConversation)) {
      const refused = options.refuseSend?.(r);
      if (refused) return refused;
      return ok({ conversation }, 201);
    }
    if (isCall(r, endpoints.listContacts)) return ok({ contacts: [] });
    return fail(404, `unexpected ${r.method} ${r.url}`, 'NOT_FOUND');
  });
}

const renderPage = (path = '/conversations/cv-1') =>
  renderWithProviders(<ConversationsPage />, { path, route: '/conversations/:conversationId?' });

const calls = (requests: Recorded[], endpoint: Parameters<typeof isCall>[1]) => requests.filter((r) => isCall(r, endpoint));
const uploadRequests = (requests: Recorded[]) => calls(requests, endpoints.createPictureUpload).map((r) => r.body);
const sends = (requests: Recorded[]) => calls(requests, endpoints.sendMessage).map((r) => r.body);

async function openComposer() {
  const box = (await screen.findByRole('textbox', { name: 'Message' })) as HTMLTextAreaElement;
  const form = box.closest('form') as HTMLFormElement;
  const composer = within(form);
  return {
    box,
    form,
    composer,
    send: () => composer.getByRole('button', { name: /^(Send|Sending…)$/ }) as HTMLButtonElement,
    fileInput: () => composer.getByLabelText('Attach pictures', { selector: 'input[type="file"]' }) as HTMLInputElement,
  };
}

/** A paste of files, as the browser hands a screenshot or a copied image to the field. */
const paste = (field: HTMLElement, files: File[]) =>
  fireEvent.paste(field, { clipboardData: { files, types: ['Files'], getData: () => '' } });

const dragged = (files: File[]) => ({ dataTransfer: { files, types: ['Files'], dropEffect: 'none' } });

beforeEach(() => signInAs('AGENT'));

describe('Pictures in the composer', () => {
  it('attaches by the button, shows the thumbnail with its upload’s progress, waits for it to send, then sends and shows it sent', async () => {
    const urls = stubObjectUrls();
    stubBucket('held');
    const requests = server();
    const user = userEvent.setup();
    renderPage();
    const { box, composer, send, fileInput } = await openComposer();

    const attach = composer.getByRole('button', { name: 'Attach pictures' });
    expect(attach.getAttribute('aria-disabled')).toBeNull();
    expect(fileInput().accept).toBe('image/jpeg,image/png,image/gif');
    const dent = picture('dent.jpg');
    await user.upload(fileInput(), dent);

    const thumbnail = composer.getByRole('img', { name: 'dent.jpg' });
    expect(thumbnail.getAttribute('src')).toBe('blob:test/1');
    expect(urls.made[0]).toBe(dent);
    const progress = await composer.findByRole('progressbar', { name: 'Uploading dent.jpg' });
    expect(progress.getAttribute('aria-valuenow')).toBe('0');
    await user.type(box, 'See the dent');
    expect(send().disabled).toBe(true);

    // The upload URL is asked for with the file's type and size, then the bytes go there with its headers.
    await waitFor(() => expect(bucket.requests).toHaveLength(1));
    expect(uploadRequests(requests)).toEqual([{ contentType: 'image/jpeg', size: 2048 }]);
    const [put] = bucket.requests as [BucketRequest];
    expect(put.method).toBe('PUT');
    expect(put.url).toBe('https://pictures.example/upload/1?signature=s1');
    expect(put.headers).toEqual({ 'Content-Type': 'image/jpeg' });
    expect(put.body).toBe(dent);
    put.progress(1024, 2048);
    expect(progress.getAttribute('aria-valuenow')).toBe('50');
    // Enter does not send while a picture is on its way.
    await user.type(box, '{Enter}');
    expect(sends(requests)).toEqual([]);

    put.finish(200);
    await waitFor(() => expect(composer.queryByRole('progressbar')).toBeNull());
    expect(send().disabled).toBe(false);
    await user.click(send());

    await waitFor(() => expect(box.value).toBe(''));
    expect(sends(requests)).toEqual([{ body: 'See the dent', pictureIds: ['up-1'] }]);
    expect(composer.queryByRole('list', { name: 'Attached pictures' })).toBeNull();
    expect(urls.revoked).toContain('blob:test/1');
    // Sent, it shows in the thread as received pictures do, from the bytes at hand.
    const thread = within(screen.getByRole('list', { name: 'Messages' }));
    const sent = await thread.findByRole('img', { name: 'Photo sent to (415) 555-0201' });
    expect(sent.getAttribute('src')).toMatch(/^blob:test\//);
    expect(urls.made.at(-1)).toBe(dent);
    expect(calls(requests, endpoints.messageMedia)).toEqual([]);
    expect(thread.getByText('See the dent')).toBeTruthy();
  });

  it('takes pictures from a paste and a drop, with a hint while dragging, and sends pictures only, in the order attached', async () => {
    stubObjectUrls();
    stubBucket();
    const requests = server();
    const user = userEvent.setup();
    renderPage();
    const { box, form, composer, send } = await openComposer();

    paste(box, [picture('screenshot-1.png', 'image/png'), picture('screenshot-2.png', 'image/png')]);
    expect(box.value).toBe('');
    fireEvent.dragEnter(form, dragged([]));
    expect(composer.getByText('Drop pictures to attach')).toBeTruthy();
    fireEvent.dragOver(form, dragged([]));
    fireEvent.drop(form, dragged([picture('porch.gif', 'image/gif')]));
    expect(composer.queryByText('Drop pictures to attach')).toBeNull();

    const thumbnails = within(composer.getByRole('list', { name: 'Attached pictures' })).getAllByRole('img');
    expect(thumbnails.map((t) => t.getAttribute('alt'))).toEqual(['screenshot-1.png', 'screenshot-2.png', 'porch.gif']);
    await waitFor(() => expect(composer.queryByRole('progressbar')).toBeNull());
    expect(bucket.requests.map((r) => r.url.split('?')[0])).toEqual([
      'https://pictures.example/upload/1',
      'https://pictures.example/upload/2',
      'https://pictures.example/upload/3',
    ]);
    // No words: the pictures alone are a text.
    expect(send().disabled).toBe(false);
    await user.click(send());
    await waitFor(() => expect(sends(requests)).toEqual([{ body: '', pictureIds: ['up-1', 'up-2', 'up-3'] }]));
    const thread = within(screen.getByRole('list', { name: 'Messages' }));
    expect(await thread.findAllByRole('img', { name: 'Photo sent to (415) 555-0201' })).toHaveLength(3);
  });

  it('over a sending limit (429), says which limit and when, and keeps the words and the pictures to send again', async () => {
    stubObjectUrls();
    stubBucket();
    const limit = 'You can send up to 60 text segments a minute. Please try again in 40 seconds.';
    let refusals = 1;
    const requests = server({
      refuseSend: () =>
        refusals-- > 0
          ? json(429, {
              success: false,
              error: { code: 'TOO_MANY_REQUESTS', message: limit, details: { retryAfterSeconds: 40 } },
            })
          : undefined,
    });
    const user = userEvent.setup();
    renderPage();
    const { box, composer, send, fileInput } = await openComposer();
    await user.upload(fileInput(), picture('dent.jpg'));
    await user.type(box, 'See the dent');
    await waitFor(() => expect(send().disabled).toBe(false));
    await user.click(send());

    expect((await composer.findByRole('alert')).textContent).toBe(limit);
    expect(box.value).toBe('See the dent');
    expect(within(composer.getByRole('list', { name: 'Attached pictures' })).getByRole('img', { name: 'dent.jpg' })).toBeTruthy();
    expect(send().disabled).toBe(false);

    // Later, the same words and picture go as they were.
    await user.click(send());
    await waitFor(() => expect(box.value).toBe(''));
    expect(sends(requests)).toEqual([
      { body: 'See the dent', pictureIds: ['up-1'] },
      { body: 'See the dent', pictureIds: ['up-1'] },
    ]);
    expect(composer.queryByRole('alert')).toBeNull();
  });

  it('a text without pictures is sent as before, and a paste of words stays in the field', async () => {
    stubObjectUrls();
    stubBucket();
    const requests = server();
    const user = userEvent.setup();
    renderPage();
    const { box } = await openComposer();
    await user.click(box);
    await user.paste('On my way');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(sends(requests)).toEqual([{ body: 'On my way' }]));
    expect(uploadRequests(requests)).toEqual([]);
  });

  it('names each file it cannot attach and why, keeping the others; Remove works from the keyboard', async () => {
    const urls = stubObjectUrls();
    stubBucket();
    server();
    const user = userEvent.setup({ applyAccept: false });
    renderPage();
    const { composer, fileInput } = await openComposer();

    await user.upload(fileInput(), [
      picture('one.jpg'),
      picture('invoice.pdf', 'application/pdf'),
      picture('huge.png', 'image/png', MAX_PICTURE_BYTES + 1),
      picture('two.jpg'),
      picture('three.jpg'),
      picture('four.jpg'),
      picture('five.jpg'),
      picture('six.jpg'),
    ]);
    const attached = () =>
      within(composer.getByRole('list', { name: 'Attached pictures' }))
        .getAllByRole('img')
        .map((t) => t.getAttribute('alt'));
    expect(attached()).toEqual(['one.jpg', 'two.jpg', 'three.jpg', 'four.jpg', 'five.jpg']);
    const problems = composer.getAllByRole('alert').map((a) => a.textContent);
    expect(problems).toContain(
      '“invoice.pdf” cannot be attached: pictures must be JPEG, PNG or GIF.“huge.png” cannot be attached: a picture can be at most 5 MB.“six.jpg” cannot be attached: a text can carry at most 5 pictures.',
    );

    const remove = composer.getByRole('button', { name: 'Remove three.jpg' });
    remove.focus();
    await user.keyboard('{Enter}');
    expect(attached()).toEqual(['one.jpg', 'two.jpg', 'four.jpg', 'five.jpg']);
    expect(urls.revoked).toEqual(['blob:test/3']);
    // The keyboard stays in the list, on the next picture.
    expect(document.activeElement).toBe(composer.getByRole('button', { name: 'Remove four.jpg' }));
    // Room again for one.
    await user.upload(fileInput(), picture('six.jpg'));
    expect(attached()).toEqual(['one.jpg', 'two.jpg', 'four.jpg', 'five.jpg', 'six.jpg']);
    expect(composer.queryByText(/cannot be attached/)).toBeNull();
    // Twilio's limit is for a text's pictures together too: a 5 MB one no longer fits beside these.
    await user.click(composer.getByRole('button', { name: 'Remove six.jpg' }));
    await user.upload(fileInput(), picture('almost.jpg', 'image/jpeg', MAX_PICTURE_BYTES));
    expect(composer.getAllByRole('alert').map((a) => a.textContent)).toContain(
      "“almost.jpg” cannot be attached: a text's pictures can be at most 5 MB together. Send it in another text.",
    );
    expect(attached()).toEqual(['one.jpg', 'two.jpg', 'four.jpg', 'five.jpg']);
  });

  it('says why an upload failed and uploads it again on Retry; Send waits meanwhile', async () => {
    stubObjectUrls();
    stubBucket('refuse');
    let refusals = 1;
    const requests = server({
      refuseUpload: () =>
        refusals-- > 0 ? fail(503, 'The picture store is busy. Try again in a moment.', 'SERVICE_UNAVAILABLE') : undefined,
    });
    const user = userEvent.setup();
    renderPage();
    const { box, composer, send, fileInput } = await openComposer();
    await user.type(box, 'Here');

    // The API refuses an upload URL: its sentence.
    await user.upload(fileInput(), picture('dent.jpg'));
    expect((await composer.findByRole('alert')).textContent).toBe(
      '“dent.jpg” could not be uploaded: The picture store is busy. Try again in a moment.',
    );
    expect(send().disabled).toBe(true);

    // The bucket refuses the bytes: its own sentence.
    await user.click(composer.getByRole('button', { name: 'Retry dent.jpg' }));
    expect(await composer.findByText('“dent.jpg” could not be uploaded: The upload was refused (403). Try again.')).toBeTruthy();
    expect(send().disabled).toBe(true);

    bucket.answer = 'ok';
    await user.click(composer.getByRole('button', { name: 'Retry dent.jpg' }));
    await waitFor(() => expect(composer.queryByRole('alert')).toBeNull());
    expect(document.activeElement).toBe(composer.getByRole('button', { name: 'Remove dent.jpg' }));
    expect(composer.queryByRole('button', { name: 'Retry dent.jpg' })).toBeNull();
    expect(uploadRequests(requests)).toHaveLength(3);
    await user.click(send());
    // The upload granted last is the one sent.
    await waitFor(() => expect(sends(requests)).toEqual([{ body: 'Here', pictureIds: ['up-2'] }]));
  });

  it('a send that fails keeps the words and the pictures, and sends them again', async () => {
    stubObjectUrls();
    stubBucket();
    let refusals = 1;
    const requests = server({
      refuseSend: () => (refusals-- > 0 ? fail(502, 'Twilio did not answer. Try again.', 'PROVIDER_ERROR') : undefined),
    });
    const user = userEvent.setup();
    renderPage();
    const { box, composer, send, fileInput } = await openComposer();
    await user.upload(fileInput(), [picture('a.jpg'), picture('b.jpg')]);
    await user.type(box, 'Both sides');
    await waitFor(() => expect(send().disabled).toBe(false));
    await user.click(send());

    expect((await composer.findByRole('alert')).textContent).toBe('Twilio did not answer. Try again.');
    expect(box.value).toBe('Both sides');
    expect(
      within(composer.getByRole('list', { name: 'Attached pictures' }))
        .getAllByRole('img')
        .map((t) => t.getAttribute('alt')),
    ).toEqual(['a.jpg', 'b.jpg']);
    await user.click(send());
    await waitFor(() => expect(box.value).toBe(''));
    expect(sends(requests)).toEqual([
      { body: 'Both sides', pictureIds: ['up-1', 'up-2'] },
      { body: 'Both sides', pictureIds: ['up-1', 'up-2'] },
    ]);
  });

  it('uploads a picture again when its upload expired before the send', async () => {
    stubObjectUrls();
    stubBucket();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-29T09:00:00Z'));
    const requests = server();
    const user = userEvent.setup();
    renderPage();
    const { box, composer, send, fileInput } = await openComposer();
    await user.upload(fileInput(), picture('dent.jpg'));
    await waitFor(() => expect(composer.queryByRole('progressbar')).toBeNull());
    await user.type(box, 'Later');

    // The agent wrote for longer than the upload stays good.
    vi.setSystemTime(new Date(Date.now() + PICTURE_URL_SECONDS * 1000 + 1000));
    await user.click(send());
    await waitFor(() => expect(sends(requests)).toEqual([{ body: 'Later', pictureIds: ['up-2'] }]));
    expect(bucket.requests).toHaveLength(2);
  });

  it('a picture dropped while writing a note goes with the reply', async () => {
    stubObjectUrls();
    stubBucket();
    server();
    const user = userEvent.setup();
    renderPage();
    const { form, composer } = await openComposer();
    await user.click(composer.getByRole('radio', { name: 'Note' }));
    expect(composer.queryByRole('button', { name: 'Attach pictures' })).toBeNull();
    fireEvent.drop(form, dragged([picture('dent.jpg')]));
    expect((composer.getByRole('radio', { name: 'Reply' }) as HTMLInputElement).checked).toBe(true);
    expect(composer.getByRole('img', { name: 'dent.jpg' })).toBeTruthy();
  });
});

describe('Where pictures cannot go', () => {
  it.each([
    ['COUNTRY_WITHOUT_MMS', 'Pictures can be sent only to US and Canadian numbers. Send the text without them.'],
    ['CHANNEL_WITHOUT_MMS', 'Pictures cannot be sent from (415) 555-0101: it does not support MMS. Send the text without them.'],
  ] as const)('%s: the attach button says why, and a press, a paste or a drop attaches nothing', async (block, sentence) => {
    stubObjectUrls();
    stubBucket();
    const requests = server({ picturesBlockedBy: block });
    const user = userEvent.setup();
    renderPage();
    const { box, form, composer, fileInput } = await openComposer();
    const attach = composer.getByRole('button', { name: 'Attach pictures' });
    expect(attach.getAttribute('aria-disabled')).toBe('true');
    expect(attach.getAttribute('title')).toBe(sentence);
    expect(document.getElementById(attach.getAttribute('aria-describedby') ?? '')?.textContent).toBe(sentence);
    const picker = vi.spyOn(fileInput(), 'click');

    await user.click(attach);
    expect(picker).not.toHaveBeenCalled();
    expect((await composer.findByRole('alert')).textContent).toBe(sentence);
    paste(box, [picture('dent.jpg')]);
    fireEvent.drop(form, dragged([picture('dent.jpg')]));
    expect(composer.queryByRole('list', { name: 'Attached pictures' })).toBeNull();
    expect(uploadRequests(requests)).toEqual([]);
    // Words still go.
    await user.type(box, 'Words only{Enter}');
    await waitFor(() => expect(sends(requests)).toEqual([{ body: 'Words only' }]));
  });
});

describe('The thread shows sent pictures', () => {
  it('reads an outbound message’s pictures as it reads received ones, saying they were sent', async () => {
    const urls = stubObjectUrls();
    const media = [
      { contentType: 'image/png', url: urlOf(endpoints.messageMedia, { id: 'cv-1', messageId: 'm-out', index: '0' }) },
    ];
    const requests = server({
      messages: [message({ id: 'm-out', direction: 'OUTBOUND', status: 'DELIVERED', body: '', media })],
    });
    renderPage();
    const thread = within(await screen.findByRole('list', { name: 'Messages' }));
    const sent = await thread.findByRole('img', { name: 'Photo sent to (415) 555-0201' });
    expect(sent.getAttribute('src')).toBe('blob:test/1');
    expect(urls.made[0]?.type).toBe('image/jpeg');
    expect(calls(requests, endpoints.messageMedia).map((r) => r.url)).toEqual([media[0]?.url]);
    expect(thread.getByText('Delivered')).toBeTruthy();
  });
});

describe('Pictures in New message', () => {
  async function openNewMessage(path = '/conversations?new=1') {
    renderPage(path);
    const dialog = await screen.findByRole('dialog', { name: 'New message' });
    await within(dialog).findByRole('option', { name: '(415) 555-0101 · Support' });
    return within(dialog);
  }
  const fileInputOf = (dialog: ReturnType<typeof within>) =>
    dialog.getByLabelText('Attach pictures', { selector: 'input[type="file"]' }) as HTMLInputElement;
  const starts = (requests: Recorded[]) => calls(requests, endpoints.startConversation).map((r) => r.body);

  it('says as To is typed when pictures cannot go there, and sends pictures only once they can', async () => {
    stubObjectUrls();
    stubBucket();
    const requests = server();
    const user = userEvent.setup();
    const dialog = await openNewMessage();
    const sentence = 'Pictures can be sent only to US and Canadian numbers. Send the text without them.';

    await user.upload(fileInputOf(dialog), picture('menu.png', 'image/png'));
    await waitFor(() => expect(dialog.queryByRole('progressbar')).toBeNull());
    const to = dialog.getByLabelText('To');
    await user.type(to, '+33612345678');
    expect(dialog.getByText(sentence)).toBeTruthy();
    const send = dialog.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    expect(document.getElementById(send.getAttribute('aria-describedby') ?? '')?.textContent).toBe(sentence);

    await user.clear(to);
    await user.type(to, '2025550123');
    expect(dialog.queryByText(sentence)).toBeNull();
    expect(send.disabled).toBe(false);
    // No words: the picture alone is the first text.
    await user.click(send);
    await waitFor(() =>
      expect(starts(requests)).toEqual([{ to: '(202) 555-0123', channelId: 'ch-1', body: '', pictureIds: ['up-1'] }]),
    );
  });

  it('says when the sending number cannot send pictures, naming it', async () => {
    stubObjectUrls();
    stubBucket();
    server({ numbers: [{ ...SUPPORT, mms: false }] });
    const user = userEvent.setup();
    const dialog = await openNewMessage();
    const sentence = 'Pictures cannot be sent from (415) 555-0101: it does not support MMS. Send the text without them.';
    expect(dialog.queryByText(sentence)).toBeNull();
    const message = dialog.getByLabelText('Message');
    paste(message, [picture('menu.png', 'image/png')]);
    expect(await dialog.findByText(sentence)).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Remove menu.png' }));
    expect(dialog.queryByText(sentence)).toBeNull();
    // The last one gone, the keyboard goes back to the message.
    expect(document.activeElement).toBe(message);
  });

  it('takes a drop with a hint, and a refused start keeps the pictures', async () => {
    stubObjectUrls();
    stubBucket();
    let refusals = 1;
    const requests = server({
      refuseSend: () =>
        refusals-- > 0
          ? fail(
              409,
              'This contact opted out of texts from this number (they replied STOP). They can text START to opt back in.',
              'OPTED_OUT',
            )
          : undefined,
    });
    const user = userEvent.setup();
    const dialog = await openNewMessage('/conversations?new=1&to=%2B12025550188');
    const form = dialog.getByRole('form', { name: 'New message' });
    fireEvent.dragEnter(form, dragged([]));
    expect(dialog.getByText('Drop pictures to attach')).toBeTruthy();
    fireEvent.drop(form, dragged([picture('a.jpg'), picture('b.gif', 'image/gif')]));
    await waitFor(() => expect(dialog.queryByRole('progressbar')).toBeNull());
    await user.type(dialog.getByLabelText('Message'), 'Our menu');
    await user.click(dialog.getByRole('button', { name: 'Send' }));

    expect(
      await dialog.findByText(
        'This contact opted out of texts from this number (they replied STOP). They can text START to opt back in.',
      ),
    ).toBeTruthy();
    expect(
      within(dialog.getByRole('list', { name: 'Attached pictures' }))
        .getAllByRole('img')
        .map((t) => t.getAttribute('alt')),
    ).toEqual(['a.jpg', 'b.gif']);
    expect(starts(requests)).toEqual([
      { to: '(202) 555-0188', channelId: 'ch-1', body: 'Our menu', pictureIds: ['up-1', 'up-2'] },
    ]);
  });
});
