import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatPhoneNumber } from '../../shared/phone-numbers';
import { type Account, callRoute, signUp, uniqueEmail } from '../support/api';
import {
  COLOUR_RULES,
  DESKTOP,
  gone,
  isDark,
  launchBrowser,
  openTab,
  PHONE,
  registerUnverified,
  seen,
  seriousA11yViolations,
  signedInTab,
  type Tab,
  UI_TIMEOUT_MS,
  web,
} from '../support/browser';
import { endpoints } from '../support/endpoints';
import { PLATFORM_ADMIN_OVERVIEW } from '../support/global-setup';
import { createInbox } from '../support/settings';
import { newPhone, type SmsLine, sendText, smsLine, textIn } from '../support/sms';
import { addTeamMember, invite, latestInvitationToken } from '../support/team';
import { addNote } from '../support/team-inbox';
import {
  callFromPhone,
  emulatorCall,
  hangUpCall,
  newTwilioAccount,
  speakOnCall,
  textFromPhone,
  twilioPost,
} from '../support/twilio';
import { addInboxMember, deviceRegistered, exhaustVoiceTokens, listCalls, routeChannel } from '../support/voice';

/**
 * The accessibility tour: axe-core on every screen of the app and every state of it a person meets
 * (errors shown, a dialog open, a call ringing, a number drifted...), each once, in the light and the
 * dark theme, and nothing of impact serious or critical may be found. The journeys check what the app
 * does; this tour is where it is checked that everyone can use it.
 *
 * Four companies on the local stack: a new one (empty screens, forms in error), one at work (Twilio,
 * an inbox, a colleague, conversations, the call widget), one with a voicemail and a drifted number
 * (Call History, channel health, then Twilio disconnected), and the platform administrator's.
 */
const PASSWORD = 'correct horse battery';
const ELSEWHERE = 'https://elsewhere.example/sms';
const CALLER = '+14155550123';

let browser: Browser;
/** A new company: nothing set up yet. */
let fresh: Account;
/** A company at work, its owner, and an agent in its Support inbox. */
let work: SmsLine;
let agent: Account;
/** Its conversations, by the customer's number: a reply delivered, a picture, an internal note, one assigned to the agent. */
const threads = { replied: '', picture: '', note: '', assigned: '' };
const customers = { replied: newPhone(), picture: newPhone(), note: newPhone(), assigned: newPhone() };
/** A company whose number took a voicemail, then drifted in Twilio. */
let voicemail: SmsLine;
let voicemailCustomer = '';
let voicemailCaller = '';
let admin: Account;
let unverifiedEmail: string;
/** A pending invitation's link, and a link already accepted. */
let inviteLink = '';
let usedInviteLink = '';

const conversationOf = async (owner: Account, phone: string): Promise<string> => {
  const res = await callRoute(endpoints.listConversations, { query: { limit: '100' }, token: owner.tokens.accessToken });
  const id = res.body.data.conversations.find((c) => c.contact.phoneNumber === phone)?.id;
  if (!id) throw new Error(`no conversation with ${phone}`);
  return id;
};

async function companyAtWork() {
  const owner = await signUp({ name: 'Olive Owner', companyName: 'Harbor Desk', password: PASSWORD });
  work = await smsLine({ account: owner });
  const [inbox, colleague] = await Promise.all([
    createInbox(owner, 'Support', 'Customer questions\nand orders'),
    addTeamMember(owner, { name: 'Alan Agent' }),
  ]);
  agent = colleague;
  await Promise.all([addInboxMember(owner, inbox.id, owner.user.id), addInboxMember(owner, inbox.id, agent.user.id)]);
  await routeChannel(owner, work.channel, 'INBOX', inbox.id);

  const pending = uniqueEmail('pending');
  await invite(owner, pending, 'AGENT');
  inviteLink = web(`/accept-invite#token=${await latestInvitationToken(pending)}`);
  usedInviteLink = web(`/accept-invite#token=${await latestInvitationToken(agent.email)}`);

  for (const [name, phoneNumber, email] of [
    ['Grace Hopper', '+12025550143', 'grace@navy.example'],
    ['Alan Turing', '+14155550188', 'alan@bletchley.example'],
  ] as const) {
    const res = await callRoute(endpoints.createContact, {
      token: owner.tokens.accessToken,
      body: { name, phoneNumber, email, notes: '' },
    });
    if (res.status !== 201) throw new Error(`contact: ${JSON.stringify(res.body)}`);
  }

  for (const [from, body] of [
    [customers.replied, 'Is my order ready?'],
    [customers.note, 'Can someone call me back?'],
    [customers.assigned, 'Who is looking after my return?'],
  ] as const) {
    const answer = await textIn(work, { from, body });
    if (answer.status !== 200) throw new Error(`text in: ${answer.status} ${answer.text}`);
  }
  await textFromPhone({ from: customers.picture, to: work.channel.identifier, body: '', media: [{ contentType: 'image/png' }] });
  for (const key of ['replied', 'picture', 'note', 'assigned'] as const)
    threads[key] = await conversationOf(owner, customers[key]);
  expect((await sendText(owner, threads.replied, 'Yes, it ships today.')).status).toBe(201);
  expect((await addNote(owner, threads.note, 'Tried twice, no answer. @Alan Agent can you try after 5?')).status).toBe(201);
  const assignedTo = await callRoute(endpoints.assignConversation, {
    params: { id: threads.assigned },
    token: owner.tokens.accessToken,
    body: { userId: agent.user.id },
  });
  expect(assignedTo.status).toBe(200);
}

async function companyWithVoicemail() {
  voicemail = await smsLine({ account: await signUp({ name: 'Vera Voicemail', companyName: 'Quayside Repairs' }) });
  // Nobody takes the number's calls (unassigned): the caller leaves a voicemail.
  voicemailCaller = newPhone();
  const call = await callFromPhone({ from: voicemailCaller, to: voicemail.channel.identifier });
  await speakOnCall(call.sid, 7);
  await hangUpCall(call.sid);
  voicemailCustomer = newPhone();
  expect((await textIn(voicemail, { from: voicemailCustomer, body: 'Are you open on Sunday?' })).status).toBe(200);
  // In a hook, where expect.poll is not available: vi.waitFor retries until the voicemail is listed.
  await vi.waitFor(
    async () => {
      const { calls } = (await listCalls(voicemail.account, { voicemail: 'true' })).body.data;
      if (calls.length !== 1) throw new Error(`voicemails: ${calls.length}`);
    },
    { timeout: UI_TIMEOUT_MS, interval: 250 },
  );
  // Someone points the number's texts elsewhere in Twilio's console.
  const sid = voicemail.twilio.numbers.find((n) => n.phone_number === voicemail.channel.identifier)?.sid;
  await twilioPost(voicemail.twilio, `/IncomingPhoneNumbers/${sid}.json`, { SmsUrl: ELSEWHERE });
}

beforeAll(async () => {
  // A fake microphone, for the call under way.
  browser = await launchBrowser({ fakeMicrophone: true });
  [fresh, admin, unverifiedEmail] = await Promise.all([
    signUp({ name: 'Ada Lovelace', companyName: 'Analytical Engines', password: PASSWORD }),
    signUp({ email: PLATFORM_ADMIN_OVERVIEW, name: 'Olive Operator', companyName: 'Platform Ops' }),
    registerUnverified(PASSWORD),
    companyAtWork(),
    companyWithVoicemail(),
  ]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

/** No transitions, so axe never measures a colour half-way through a theme switch. */
const FREEZE_MOTION =
  '*,*::before,*::after{transition:none!important;animation-duration:0s!important;animation-iteration-count:1!important}';

/** The states checked, in order, for the summary at the end. */
const toured: string[] = [];

/**
 * axe on the page as it is now, in the light and then the dark theme, switched as the app's toggle
 * does (web/src/lib/theme.ts applyTheme: a class and the color-scheme on <html>), so what is on screen
 * stays as it is. A failure is recorded and the tour goes on, to list every state that fails.
 */
async function check(page: Page, state: string) {
  await page.evaluate((css) => {
    if (document.getElementById('tour-freeze')) return;
    const style = Object.assign(document.createElement('style'), { id: 'tour-freeze', textContent: css });
    document.head.append(style);
  }, FREEZE_MOTION);
  const wasDark = await isDark(page);
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => {
      document.documentElement.classList.toggle('dark', t === 'dark');
      document.documentElement.style.colorScheme = t;
    }, theme);
    // Every rule in the light theme; in the dark one, what colours decide (COLOUR_RULES).
    const violations = await seriousA11yViolations(page, theme === 'dark' ? { only: COLOUR_RULES } : {});
    expect.soft(violations, `axe on ${state} (${theme}):\n${violations.join('\n')}`).toEqual([]);
  }
  await page.evaluate((dark) => {
    document.documentElement.classList.toggle('dark', dark);
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  }, wasDark);
  toured.push(state);
}

const heading = (page: Page, name: string) => seen(page.getByRole('heading', { name }));
const dialog = (page: Page, name: string) => seen(page.getByRole('dialog', { name }));
const alertDialog = (page: Page, name: string) => seen(page.getByRole('alertdialog', { name }));
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const settingsNav = (page: Page) => page.getByRole('navigation', { name: 'Settings' });
/**
 * Moves on as a person does, by the app's own links: a page load would start the app again (session,
 * phone, socket) for every state, the larger part of the tour's time.
 */
const toMain = (page: Page, name: string) =>
  // Conversations carries its unread count in its name.
  mainNav(page)
    .getByRole('link', { name: new RegExp(`^${name}( \\d+ unread)?$`) })
    .click();
const toSettings = (page: Page, name: string) => settingsNav(page).getByRole('link', { name, exact: true }).click();
/** A conversation of the list, by the customer's number as the list shows it. */
const conversationRow = (page: Page, phone: string) =>
  page
    .getByRole('region', { name: 'Conversation list' })
    .getByRole('link')
    .filter({ hasText: formatPhoneNumber(phone, 'US') });

/** Escape closes the dialog (the state was only to be checked). */
async function dismiss(page: Page, open: Locator) {
  await page.keyboard.press('Escape');
  await gone(open);
}

/** The tabs of the tour still open. */
const opened: Tab[] = [];
async function tab(account: Account, options: Parameters<typeof signedInTab>[2] = {}): Promise<Tab> {
  const made = await signedInTab(browser, account, options);
  opened.push(made);
  return made;
}
/**
 * Ends a part: every tab is checked for page errors, and those the later parts do not use are closed.
 * An open tab keeps its app running (the socket, the phone's signalling heartbeat, timers), which cost
 * CPU in Chromium and the stack through every later part.
 */
async function partDone(...keep: Tab[]) {
  for (const t of opened) expect(t.errors).toEqual([]);
  const finished = opened.filter((t) => !keep.includes(t));
  opened.splice(0, opened.length, ...keep);
  await Promise.all(finished.map((t) => t.context.close()));
}

describe('the accessibility tour', () => {
  let owner: Tab;
  let colleague: Tab;

  afterAll(async () => {
    await Promise.all(opened.map((t) => t.context.close()));
    // Printed for the record of what the tour covers.
    console.log(`accessibility tour: ${toured.length} states, each in both themes`);
  });

  it('public pages: sign in, register, verification, invitation, not found', async () => {
    // Nothing stored: the app follows the system preference, here dark.
    const visitor = await openTab(browser, { colorScheme: 'dark' });
    opened.push(visitor);
    const { page } = visitor;
    await page.goto(web('/login'));
    await heading(page, 'Sign in');
    expect(await isDark(page), 'the system preference picks the theme').toBe(true);
    await check(page, '/login');

    await page.getByLabel('Email').fill(fresh.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await seen(page.getByRole('alert').filter({ hasText: 'Invalid email or password' }));
    await check(page, '/login, wrong password');

    await page.getByLabel('Email').fill(unverifiedEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await seen(page.getByText('Email not verified'));
    await check(page, '/login, e-mail not verified');

    await page.goto(web('/register'));
    await heading(page, 'Create your account');
    await check(page, '/register');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await seen(page.getByText('Password must be at least 8 characters long'));
    await seen(page.getByText('Company name is required'));
    await check(page, '/register, every field in error');

    await page.goto(web('/verify-email'));
    await seen(page.getByText('Invalid verification link. No token provided.'));
    await check(page, '/verify-email without a token');

    await page.goto(web('/resend-verification'));
    await heading(page, 'Resend verification email');
    await check(page, '/resend-verification');

    await page.goto(inviteLink);
    await heading(page, 'Join Harbor Desk');
    await check(page, '/accept-invite');
    // Another page between the two links: from /accept-invite, a link that differs only by its fragment
    // would not load the page again.
    await page.goto(web('/no-such-page'));
    await heading(page, 'Page not found');
    await check(page, 'an unknown address');
    await page.goto(usedInviteLink);
    await seen(page.getByText('This invitation has already been accepted. Sign in with your email and password.'));
    await check(page, '/accept-invite, a link already used');
    await partDone();
  });

  it('a new company: empty screens and forms in error; profile, company and calling', async () => {
    const { page } = await tab(fresh, { path: '/dashboard' });
    await heading(page, 'Welcome, Ada Lovelace');
    await expect.poll(() => page.getByRole('region', { name: 'Overview' }).locator('[aria-busy="true"]').count()).toBe(0);
    await check(page, '/dashboard, nothing set up');

    await toMain(page, 'Settings');
    await seen(page.getByText('Not connected'));
    await check(page, '/settings/providers, not connected');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    const connect = await dialog(page, 'Connect Twilio');
    await connect.getByRole('button', { name: 'Connect', exact: true }).click();
    await seen(connect.getByText('Auth token is required'));
    await check(page, 'Connect Twilio, both fields required');
    await connect.getByLabel('Account SID').fill((await newTwilioAccount()).accountSid);
    await connect.getByLabel('Auth token').fill('0123456789abcdef0123456789abcdef');
    await connect.getByRole('button', { name: 'Connect', exact: true }).click();
    await seen(connect.getByRole('alert'));
    await check(page, 'Connect Twilio, refused by Twilio');
    await dismiss(page, connect);

    await toSettings(page, 'Inboxes');
    await seen(page.getByText('No inboxes yet'));
    await check(page, '/settings/inboxes, no inbox yet');
    await page.getByRole('button', { name: 'Create Inbox' }).click();
    const create = await dialog(page, 'Create Inbox');
    await create.getByRole('button', { name: 'Create Inbox' }).click();
    await seen(create.getByText('Inbox name is required'));
    await check(page, 'Create Inbox, name missing');
    await create.getByLabel('Inbox Name').fill('Sales');
    await create.getByRole('button', { name: 'Create Inbox' }).click();
    await gone(create);
    await page.getByRole('button', { name: /0 members/ }).click();
    const members = await dialog(page, 'Manage Members');
    await seen(members.getByText('No members yet. Add users to this inbox.'));
    await check(page, 'Manage Members, no member yet');
    await members.getByRole('button', { name: 'Done' }).click();
    await gone(members);

    await toMain(page, 'Contacts');
    await seen(page.getByText('No contacts yet'));
    await check(page, '/contacts, no contact yet');
    await page.getByRole('button', { name: 'New Contact' }).click();
    const contact = await dialog(page, 'New Contact');
    await contact.getByLabel('Email').fill('grace@');
    await contact.getByRole('button', { name: 'Create Contact' }).click();
    await seen(contact.getByText('Phone number is required'));
    await seen(contact.getByText('Enter a valid email address'));
    await check(page, 'New Contact, two fields in error');
    await dismiss(page, contact);

    await toMain(page, 'Settings');
    await toSettings(page, 'Profile');
    await seen(page.getByRole('button', { name: 'Change password' }));
    await check(page, '/settings/profile');
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await check(page, 'Sign out everywhere?');
    await dismiss(page, await alertDialog(page, 'Sign out everywhere?'));

    await toSettings(page, 'Company');
    await seen(page.getByRole('button', { name: 'Save company name' }));
    await expect.poll(() => page.getByRole('combobox', { name: 'Keep messages and calls' }).isEnabled()).toBe(true);
    await check(page, '/settings/company, as the owner');
    await page.getByRole('button', { name: 'Delete company' }).click();
    const deletion = await alertDialog(page, 'Delete Analytical Engines?');
    await check(page, 'Delete Analytical Engines?, the owner deleting the company');
    await dismiss(page, deletion);

    await toSettings(page, 'Calling');
    await seen(page.getByText('50 of 50 countries can be called.'));
    await check(page, '/settings/calling, as the owner');
    await partDone();
  });

  it('a company at work: Providers and its dialogs, Channels, Inboxes', async () => {
    owner = await tab(work.account, { path: '/dashboard', permissions: ['microphone'] });
    const { page } = owner;
    await heading(page, 'Welcome, Olive Owner');
    const step = (title: string) => page.getByRole('link').filter({ hasText: title });
    await seen(step('Create an inbox').getByText('Done'));
    await check(page, '/dashboard, two Getting Started steps done');

    await toMain(page, 'Settings');
    await seen(page.getByText('1 channel'));
    await check(page, '/settings/providers, connected');
    await page.getByRole('button', { name: 'Import numbers' }).click();
    const importer = await dialog(page, 'Import Phone Numbers');
    const row = (name: string) => importer.getByRole('listitem').filter({ hasText: name });
    await seen(row('Main line').getByText('Already imported'));
    await row('Legacy IVR').getByRole('checkbox').first().check();
    await row('SMS line').getByRole('checkbox').first().check();
    await seen(importer.getByText('2 selected'));
    await check(page, 'Import Phone Numbers: one imported, two chosen, one of them pointed at another application');
    await row('SMS line').getByRole('button', { name: 'Learn more' }).click();
    const help = await dialog(page, 'Numbers used elsewhere');
    await check(page, 'Import Phone Numbers: the help on numbers used elsewhere');
    await help.getByRole('button', { name: 'Got it' }).click();
    await gone(help);
    await page.setViewportSize(PHONE);
    await check(page, 'Import Phone Numbers at 360 px');
    await page.setViewportSize(DESKTOP);
    await importer.getByRole('button', { name: 'Cancel' }).click();
    await gone(importer);
    await page.getByRole('button', { name: 'Disconnect Twilio' }).click();
    const disconnect = await alertDialog(page, 'Disconnect Twilio?');
    await check(page, 'Disconnect Twilio?');
    await disconnect.getByRole('button', { name: 'Cancel' }).click();
    await gone(disconnect);

    const number = formatPhoneNumber(work.channel.identifier, 'US');
    await toSettings(page, 'Channels');
    await seen(page.getByRole('heading', { name: 'Phone Numbers (1)' }));
    await seen(page.getByRole('status').filter({ hasText: 'Health: Healthy' }));
    await check(page, '/settings/channels, a number routed to an inbox, healthy');
    await page.getByRole('button', { name: `Configure routing for ${number}` }).click();
    const routing = await dialog(page, 'Configure Routing');
    await expect.poll(() => routing.getByRole('combobox', { name: 'Inbox' }).inputValue()).not.toBe('');
    await check(page, 'Configure Routing, an inbox chosen');
    await routing.getByRole('radio', { name: /^Specific User/ }).check();
    await seen(routing.getByRole('combobox', { name: 'User' }));
    await check(page, 'Configure Routing, choosing a user');
    await dismiss(page, routing);

    await toSettings(page, 'Inboxes');
    const inbox = await seen(page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Support' }) }));
    await check(page, '/settings/inboxes, an inbox with members and a number');
    await page.getByRole('button', { name: 'Create Inbox' }).click();
    const duplicate = await dialog(page, 'Create Inbox');
    await duplicate.getByLabel('Inbox Name').fill('support');
    await duplicate.getByRole('button', { name: 'Create Inbox' }).click();
    await seen(duplicate.getByText('An inbox named support already exists.'));
    await check(page, 'Create Inbox, name taken');
    await dismiss(page, duplicate);
    await inbox.getByRole('button', { name: /2 members/ }).click();
    const members = await dialog(page, 'Manage Members');
    await seen(members.getByText('All users are already members of this inbox.'));
    await check(page, 'Manage Members, everyone a member');
    await members.getByRole('button', { name: 'Done' }).click();
    await gone(members);
    await inbox.getByRole('button', { name: 'Configure call routing for Support' }).click();
    await seen(page.getByRole('radio', { name: /^Ring All Users/ }));
    await check(page, 'Call Routing');
    await dismiss(page, await dialog(page, 'Call Routing'));
    await inbox.getByRole('button', { name: 'Delete Support' }).click();
    const confirm = await alertDialog(page, 'Delete Support?');
    await seen(confirm.getByText('This channel becomes unassigned:'));
    await check(page, 'Delete Support?, naming the channel it unassigns');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await gone(confirm);
    await partDone(owner);
  });

  it('a company at work: the team, a colleague’s view, the contact book', async () => {
    const { page } = owner;
    // The agent's app is open: Online on the Team page.
    colleague = await tab(agent, { path: '/settings/calling' });
    await seen(colleague.page.getByText('Only the owner and admins can change these settings.'));
    await seen(colleague.page.getByText('50 of 50 countries can be called.'));
    await check(colleague.page, '/settings/calling, as an agent');
    await toSettings(colleague.page, 'Company');
    await expect.poll(() => colleague.page.getByRole('combobox', { name: 'Keep messages and calls' }).isDisabled()).toBe(true);
    await check(colleague.page, '/settings/company, as an agent');
    await colleague.page.goto(web('/admin'));
    await heading(colleague.page, 'Access denied. Admin privileges required.');
    await check(colleague.page, '/admin, refused to someone not a platform administrator');

    await toSettings(page, 'Team');
    const alan = page.getByRole('row').filter({ hasText: 'Alan Agent' });
    await seen(alan.getByText('Online'));
    await seen(page.getByRole('region', { name: 'Pending Invitations (1)' }));
    await check(page, '/settings/team, a colleague online and an invitation pending');
    await page.getByRole('button', { name: 'Invite Member' }).click();
    const inviting = await dialog(page, 'Invite Member');
    await inviting.getByLabel('Email').fill(uniqueEmail('katherine'));
    await inviting.getByRole('button', { name: 'Send Invitation' }).click();
    await seen(inviting.getByText('Choose a role: Admin or Agent'));
    await check(page, 'Invite Member, no role chosen');
    await dismiss(page, inviting);

    // Signalling that never answers: the phone status banner stays on screen.
    const phone = await tab(work.account, {
      viewport: PHONE,
      path: '/settings/team',
      beforeLoad: ({ context }) => context.routeWebSocket(/\/signal/, () => {}),
    });
    await seen(phone.page.getByRole('status', { name: 'Phone status' }).getByText('Connecting to the phone service...'));
    await seen(phone.page.getByRole('row').filter({ hasText: 'Alan Agent' }).getByText('Online'));
    await check(phone.page, '/settings/team at 360 px, with the phone status banner');
    await phone.context.close();

    await toMain(page, 'Contacts');
    await seen(page.getByRole('row').filter({ hasText: 'Grace Hopper' }));
    await check(page, '/contacts with contacts');
    await page.getByRole('button', { name: 'Edit Grace Hopper' }).click();
    await seen(page.getByText('Phone number cannot be changed'));
    await check(page, 'Edit Contact');
    await dismiss(page, await dialog(page, 'Edit Contact'));
    await page.getByRole('button', { name: 'Delete Alan Turing' }).click();
    const confirm = await seen(page.getByRole('alertdialog'));
    await check(page, 'deleting a contact, asked first');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await gone(confirm);
    await page.setViewportSize(PHONE);
    await check(page, '/contacts at 360 px');
    await page.setViewportSize(DESKTOP);
    await partDone(owner, colleague);
  });

  it('a company at work: conversations, message details, a picture, a note, an agent’s own', async () => {
    const { page } = owner;
    const thread = page.locator('section[aria-labelledby="thread-title"]');
    await toMain(page, 'Conversations');
    await conversationRow(page, customers.replied).click();
    const reply = thread.getByRole('listitem').filter({ hasText: 'Yes, it ships today.' });
    await seen(reply.getByText('Delivered'));
    await check(page, '/conversations with a thread open, a reply delivered');
    await reply.getByRole('button', { name: 'Message actions' }).click();
    await page.getByRole('menuitem', { name: 'Details' }).click();
    const details = await dialog(page, 'Message details');
    await seen(details.getByText('delivered', { exact: true }));
    await check(page, 'Message details');
    await dismiss(page, details);

    await page.setViewportSize(PHONE);
    await thread.getByRole('link', { name: 'Back to conversations' }).click();
    await conversationRow(page, customers.picture).click();
    const alt = `Photo from ${formatPhoneNumber(customers.picture, 'US')}`;
    await expect
      .poll(() =>
        thread
          .getByRole('img', { name: alt, exact: true })
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      )
      .toBe(true);
    await check(page, 'a thread with a picture at 360 px');

    await thread.getByRole('link', { name: 'Back to conversations' }).click();
    await conversationRow(page, customers.note).click();
    await seen(thread.getByRole('listitem', { name: 'Internal note by You' }));
    // The Reply / Note switch is a radio group: the arrow key moves to Note.
    await thread.getByRole('radio', { name: 'Reply' }).focus();
    await page.keyboard.press('ArrowRight');
    await seen(thread.getByRole('textbox', { name: 'Internal note' }));
    await check(page, 'a thread with an internal note, writing a note, at 360 px');

    await toMain(colleague.page, 'Conversations');
    await colleague.page.getByRole('button', { name: 'Mine', exact: true }).click();
    await seen(colleague.page.getByRole('button', { name: 'Mine', pressed: true }));
    await colleague.page.setViewportSize(PHONE);
    const mine = colleague.page.getByRole('region', { name: 'Conversation list' }).getByRole('link');
    await seen(mine.filter({ hasText: '1 unread' }).getByTitle('Assigned to Alan Agent'));
    await check(colleague.page, '/conversations, Mine, an unread conversation assigned to the agent, at 360 px');
    await partDone(owner, colleague);
  });

  it('the call widget: the dialer, a call ringing, a call under way, calling unavailable', async () => {
    // Still on the conversation of the step before, at 360 px.
    const { page } = owner;
    await (await seen(page.getByRole('button', { name: 'Open dialer' }))).click();
    const dialer = await dialog(page, 'Make a call');
    await dialer.getByLabel('Country').selectOption('GB');
    await dialer.getByLabel('Phone number').pressSequentially('02079460958');
    await check(page, 'the dialer at 360 px');
    await dismiss(page, dialer);

    await deviceRegistered(work.account);
    const call = await callFromPhone({ from: CALLER, to: work.channel.identifier });
    const ringing = await seen(page.getByRole('region', { name: 'Incoming Call' }));
    await seen(ringing.getByRole('button', { name: 'Answer' }));
    await check(page, 'the Incoming Call panel over a conversation at 360 px');
    await page.setViewportSize(DESKTOP);
    await ringing.getByRole('button', { name: 'Answer' }).click();
    const active = await seen(page.getByRole('region', { name: 'Active Call' }));
    await seen(active.getByRole('timer', { name: 'Call duration' }));
    await active.getByRole('button', { name: 'Keypad' }).click();
    await seen(active.getByRole('group', { name: 'Keypad' }));
    await check(page, 'the Active Call panel with its keypad');
    await active.getByRole('button', { name: 'End' }).click();
    await seen(page.getByRole('button', { name: 'Open dialer' }));
    await expect.poll(async () => (await emulatorCall(call.sid)).status).toBe('completed');

    // The agent past the calling-token limit (a limit reached by real requests): Calling unavailable.
    await colleague.context.close();
    const tokensBack = await exhaustVoiceTokens(agent);
    try {
      const limited = await tab(agent, { viewport: PHONE, path: '/contacts' });
      const card = await seen(limited.page.getByRole('alert').filter({ hasText: 'Calling unavailable' }));
      await seen(card.getByText(/^Too many calling tokens requested\./));
      await check(limited.page, 'Calling unavailable, too many calling tokens, at 360 px');
    } finally {
      await tokensBack();
    }
    await partDone();
  });

  it('Call History with a voicemail, a number with no inbox to route to and drifted, then Twilio disconnected', async () => {
    const { page } = await tab(voicemail.account, { path: '/calls' });
    const number = formatPhoneNumber(voicemail.channel.identifier, 'US');
    const row = page
      .getByRole('list', { name: 'Calls' })
      .getByRole('listitem')
      .filter({ hasText: formatPhoneNumber(voicemailCaller, 'US') });
    await seen(row.getByText('New', { exact: true }));
    await check(page, '/calls with a voicemail');
    await page.getByLabel('From date').fill('2026-01-01');
    await page.getByLabel('To date').fill('2025-12-31');
    await seen(page.getByRole('alert').getByText('From date must be on or before To date'));
    await check(page, '/calls, filtered, From after To');
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await page.setViewportSize(PHONE);
    await seen(row.getByText('New', { exact: true }));
    await check(page, '/calls at 360 px');
    await row.getByRole('button', { name: /^Play voicemail/ }).click();
    await seen(row.getByLabel(/^Voicemail from /));
    await check(page, '/calls at 360 px, playing a voicemail');
    await page.setViewportSize(DESKTOP);

    await toMain(page, 'Settings');
    await toSettings(page, 'Channels');
    // This company has no inbox yet: routing to a team inbox says so.
    await page.getByRole('button', { name: `Configure routing for ${number}` }).click();
    const routing = await dialog(page, 'Configure Routing');
    await routing.getByRole('radio', { name: /^Team Inbox/ }).check();
    await seen(routing.getByText('No inboxes available. Create an inbox first.'));
    await check(page, 'Configure Routing, no inbox to choose');
    await dismiss(page, routing);
    const channel = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: `Check now for ${number}` }) });
    await channel.getByRole('button', { name: `Check now for ${number}` }).click();
    await expect.poll(() => channel.getByRole('status').first().textContent()).toBe('Health: Drifted');
    await page.setViewportSize(PHONE);
    await check(page, '/settings/channels at 360 px, a drifted number');
    await channel.getByRole('button', { name: `Health details for ${number}` }).click();
    const health = await dialog(page, 'Channel Health');
    await seen(health.getByRole('region', { name: 'Problems' }));
    await check(page, 'Channel Health at 360 px');
    await dismiss(page, health);
    await page.setViewportSize(DESKTOP);

    await toMain(page, 'Dashboard');
    await seen(page.getByText(`${number}: Drifted`));
    await check(page, '/dashboard, warning about a drifted number');

    const disconnected = await callRoute(endpoints.disconnectProvider, {
      params: { id: voicemail.provider.id },
      token: voicemail.account.tokens.accessToken,
    });
    expect(disconnected.status).toBe(200);
    await toMain(page, 'Settings');
    await toSettings(page, 'Channels');
    await seen(page.getByText('Inactive', { exact: true }));
    await check(page, '/settings/channels, inactive after Twilio was disconnected');
    await toMain(page, 'Conversations');
    await conversationRow(page, voicemailCustomer).click();
    await seen(page.getByText(/^Texts cannot be sent from /));
    await check(page, 'a thread whose number is inactive');
    await partDone();
  });

  it('the admin overview', async () => {
    const { page } = await tab(admin, { path: '/admin' });
    await heading(page, 'Admin overview');
    await seen(page.getByText(/\d+% verified/));
    const company = await seen(page.getByRole('table', { name: 'Companies' }).getByRole('row').filter({ hasText: fresh.email }));
    await check(page, '/admin');
    await company.getByRole('button', { name: 'Delete Analytical Engines' }).click();
    await check(page, 'Delete Analytical Engines?, a platform administrator deleting a company');
    await dismiss(page, await alertDialog(page, 'Delete Analytical Engines?'));
    await page.setViewportSize(PHONE);
    await check(page, '/admin at 360 px');
    await partDone();
  });
});

describe('the check itself', () => {
  it('finds what a person with a screen reader or low vision would meet: a nameless button and grey on grey text', async () => {
    const probe = await openTab(browser);
    try {
      await probe.page.goto(web('/login'));
      await heading(probe.page, 'Sign in');
      await probe.page.evaluate(() => {
        const button = document.createElement('button');
        button.innerHTML = '<svg width="16" height="16"></svg>';
        const faint = document.createElement('p');
        faint.textContent = 'Hard to read';
        faint.style.cssText = 'color:#bbb;background:#ccc';
        document.body.append(button, faint);
      });
      const violations = await seriousA11yViolations(probe.page);
      expect(violations.map((v) => v.split(' ')[0])).toEqual(expect.arrayContaining(['button-name', 'color-contrast']));
      // Run again in the same document (axe is put in once): the same answer.
      expect((await seriousA11yViolations(probe.page)).length).toBe(violations.length);
      // The second theme's check (colours only) still finds the grey on grey, and only that.
      const colours = await seriousA11yViolations(probe.page, { only: COLOUR_RULES });
      expect(colours.map((v) => v.split(' ')[0])).toEqual(['color-contrast']);
    } finally {
      await probe.context.close();
    }
  });
});
