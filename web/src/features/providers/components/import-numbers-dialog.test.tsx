import type { ProviderNumber } from '@shared/contract/settings';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { deferred, endpoints, fail, ok, renderWithProviders, stubServer, urlOf } from '@/test-utils';
import { ImportNumbersDialog } from './import-numbers-dialog';

/** A number whose calls and texts go nowhere yet (or to Switchboard already). */
const NOT_POINTED = { voiceUrl: null, smsUrl: null, voiceApplication: null, smsApplication: null };

const NUMBERS: ProviderNumber[] = [
  {
    sid: 'PN01',
    phoneNumber: '+14155550101',
    friendlyName: 'Main line',
    imported: false,
    previouslyImported: false,
    inUseElsewhere: false,
    ...NOT_POINTED,
    capabilities: { voice: true, sms: true, mms: true },
  },
  {
    sid: 'PN02',
    phoneNumber: '+14155550102',
    friendlyName: 'Voice only',
    imported: false,
    previouslyImported: false,
    inUseElsewhere: false,
    ...NOT_POINTED,
    capabilities: { voice: true, sms: false, mms: false },
  },
  {
    sid: 'PN03',
    phoneNumber: '+14155550103',
    friendlyName: 'Texts',
    imported: false,
    previouslyImported: false,
    inUseElsewhere: false,
    ...NOT_POINTED,
    capabilities: { voice: false, sms: true, mms: false },
  },
  {
    sid: 'PN04',
    phoneNumber: '+14155550104',
    friendlyName: 'Old line',
    imported: true,
    previouslyImported: false,
    inUseElsewhere: false,
    ...NOT_POINTED,
    capabilities: { voice: true, sms: true, mms: false },
  },
];

const NUMBERS_URL = urlOf(endpoints.availableNumbers, { id: 'prov-1' });
const IMPORT_URL = urlOf(endpoints.importChannels, { id: 'prov-1' });

function renderDialog() {
  const onOpenChange = vi.fn();
  const onImported = vi.fn();
  renderWithProviders(
    <ImportNumbersDialog provider={{ id: 'prov-1', type: 'TWILIO' }} open onOpenChange={onOpenChange} onImported={onImported} />,
  );
  return { onOpenChange, onImported };
}

/** The list item of a number, found by its phone number. */
const row = (phoneNumber: string) => {
  const item = screen.getByText(phoneNumber).closest('li');
  if (!item) throw new Error(`no row for ${phoneNumber}`);
  return item;
};
const numberBox = (phoneNumber: string) => screen.getByRole('checkbox', { name: phoneNumber }) as HTMLInputElement;
const importButton = () => screen.getByRole('button', { name: /^Import \d+ Numbers?$|^Importing\.\.\.$/ }) as HTMLButtonElement;

describe('ImportNumbersDialog', () => {
  it('shows a spinner and what it is doing while the numbers load, then the counts in the header', async () => {
    const answer = deferred();
    stubServer(() => answer.promise);
    renderDialog();

    expect(screen.getByRole('dialog', { name: 'Import Phone Numbers' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Fetching phone numbers from your Twilio account...');
    answer.release(ok({ numbers: NUMBERS }));

    await screen.findByText('(415) 555-0101');
    expect(screen.getByRole('dialog').getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText('3 numbers available · 1 already imported')).toBeTruthy();
    expect(screen.queryByText('Fetching phone numbers from your Twilio account...')).toBeNull();
  });

  it('an imported number is disabled with its badge; nothing selected means 0 selected and a disabled import', async () => {
    const requests = stubServer(() => ok({ numbers: NUMBERS }));
    renderDialog();
    await screen.findByText('(415) 555-0104');

    const imported = numberBox('(415) 555-0104');
    expect(imported.disabled).toBe(true);
    expect(imported.checked).toBe(false);
    const description = (imported.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent)
      .join(' ');
    expect(description).toContain('Already imported');
    expect(within(row('(415) 555-0104')).getByText('Already imported')).toBeTruthy();
    // Only not-yet-imported rows carry the warning and its help link.
    expect(within(row('(415) 555-0104')).queryByRole('button', { name: 'Learn more' })).toBeNull();
    expect(within(row('(415) 555-0101')).getByRole('button', { name: 'Learn more' })).toBeTruthy();
    for (const n of ['(415) 555-0101', '(415) 555-0102', '(415) 555-0103']) {
      expect(numberBox(n).disabled).toBe(false);
      expect(within(row(n)).queryByText('Already imported')).toBeNull();
    }

    expect(screen.getByText('0 selected')).toBeTruthy();
    expect(importButton().textContent).toBe('Import 0 Numbers');
    expect(importButton().disabled).toBe(true);
    // Submitting the form some other way does nothing either.
    fireEvent.submit(screen.getByRole('form', { name: 'Import phone numbers' }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requests.map((r) => r.url)).toEqual([NUMBERS_URL]);
  });

  it('ticking a number offers only the capabilities it has, all ticked, each with its webhook note', async () => {
    stubServer(() => ok({ numbers: NUMBERS }));
    const events = userEvent.setup();
    renderDialog();
    await screen.findByText('(415) 555-0101');
    expect(screen.queryByRole('checkbox', { name: 'Voice' })).toBeNull();

    await events.click(numberBox('(415) 555-0101'));
    const main = within(row('(415) 555-0101'));
    expect((main.getByRole('checkbox', { name: 'Voice' }) as HTMLInputElement).checked).toBe(true);
    expect((main.getByRole('checkbox', { name: 'SMS & MMS' }) as HTMLInputElement).checked).toBe(true);
    expect(main.getByText('Incoming calls will be pointed at a Switchboard webhook.')).toBeTruthy();
    expect(main.getByText('Incoming SMS will be pointed at a Switchboard webhook.')).toBeTruthy();
    expect(screen.getByText('1 selected')).toBeTruthy();
    expect(importButton().textContent).toBe('Import 1 Number');
    expect(importButton().disabled).toBe(false);

    await events.click(numberBox('(415) 555-0102'));
    const voiceOnly = within(row('(415) 555-0102'));
    expect(voiceOnly.getByRole('checkbox', { name: 'Voice' })).toBeTruthy();
    expect(voiceOnly.queryByRole('checkbox', { name: /SMS/ })).toBeNull();

    await events.click(numberBox('(415) 555-0103'));
    const texts = within(row('(415) 555-0103'));
    expect(texts.queryByRole('checkbox', { name: 'Voice' })).toBeNull();
    expect(texts.getByRole('checkbox', { name: 'SMS' })).toBeTruthy();
    expect(screen.getByText('3 selected')).toBeTruthy();

    // Unticking a capability removes its note; unticking the number hides its capabilities.
    await events.click(main.getByRole('checkbox', { name: 'SMS & MMS' }));
    expect(main.queryByText('Incoming SMS will be pointed at a Switchboard webhook.')).toBeNull();
    await events.click(numberBox('(415) 555-0103'));
    expect(texts.queryByRole('checkbox', { name: 'SMS' })).toBeNull();
    expect(screen.getByText('2 selected')).toBeTruthy();
  });

  it('imports exactly the chosen numbers and capabilities, reads Importing... meanwhile, then closes and reports', async () => {
    const answer = deferred();
    const requests = stubServer((request) => (request.url === IMPORT_URL ? answer.promise : ok({ numbers: NUMBERS })));
    const events = userEvent.setup();
    const { onOpenChange, onImported } = renderDialog();
    await screen.findByText('(415) 555-0101');

    await events.click(numberBox('(415) 555-0101'));
    await events.click(numberBox('(415) 555-0103'));
    await events.click(within(row('(415) 555-0101')).getByRole('checkbox', { name: 'Voice' }));
    await events.click(importButton());

    expect(importButton().textContent).toBe('Importing...');
    expect(importButton().disabled).toBe(true);
    expect(requests.at(-1)).toEqual({
      url: IMPORT_URL,
      method: 'POST',
      body: {
        numbers: [
          { sid: 'PN01', phoneNumber: '+14155550101', capabilities: { voice: false, sms: true } },
          { sid: 'PN03', phoneNumber: '+14155550103', capabilities: { voice: false, sms: true } },
        ],
      },
    });
    expect(onOpenChange).not.toHaveBeenCalled();

    answer.release(ok({ channels: [], importedCount: 2, skipped: [] }, 201));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(onImported).toHaveBeenCalledWith(2, []);
  });

  it('a number with every capability unticked is not selected: not counted, not sent, and it says so', async () => {
    const requests = stubServer((request) =>
      request.url === IMPORT_URL ? ok({ channels: [], importedCount: 1, skipped: [] }, 201) : ok({ numbers: NUMBERS }),
    );
    const events = userEvent.setup();
    renderDialog();
    await screen.findByText('(415) 555-0101');
    await events.click(numberBox('(415) 555-0101'));
    expect(screen.getByText('1 selected')).toBeTruthy();
    const main = within(row('(415) 555-0101'));
    await events.click(main.getByRole('checkbox', { name: 'Voice' }));
    await events.click(main.getByRole('checkbox', { name: 'SMS & MMS' }));

    expect(screen.getByText('0 selected')).toBeTruthy();
    expect(importButton().disabled).toBe(true);
    expect(importButton().textContent).toBe('Import 0 Numbers');
    const hint = main.getByText('Not selected: tick Voice or SMS to import this number.');
    expect(numberBox('(415) 555-0101').getAttribute('aria-describedby')).toContain(hint.id);

    await events.click(numberBox('(415) 555-0103'));
    await events.click(importButton());
    await waitFor(() => expect(requests.some((r) => r.url === IMPORT_URL)).toBe(true));
    expect(requests.find((r) => r.url === IMPORT_URL)?.body).toEqual({
      numbers: [{ sid: 'PN03', phoneNumber: '+14155550103', capabilities: { voice: false, sms: true } }],
    });
  });

  it("another company's number is disabled with the reason; a previously imported one says it will be reactivated", async () => {
    stubServer(() =>
      ok({
        numbers: [{ ...NUMBERS[0], inUseElsewhere: true }, { ...NUMBERS[1], previouslyImported: true }, NUMBERS[2]],
      }),
    );
    renderDialog();
    await screen.findByText('(415) 555-0101');
    expect(screen.getByText('2 numbers available · 0 already imported')).toBeTruthy();
    const taken = numberBox('(415) 555-0101');
    expect(taken.disabled).toBe(true);
    const reason = within(row('(415) 555-0101')).getByText(/Already a channel of another company/);
    expect(taken.getAttribute('aria-describedby')?.split(' ')).toContain(reason.closest('p')?.id);
    expect(within(row('(415) 555-0101')).queryByRole('button', { name: 'Learn more' })).toBeNull();

    const previous = numberBox('(415) 555-0102');
    expect(previous.disabled).toBe(false);
    const note = within(row('(415) 555-0102')).getByText(/Previously imported — will be reactivated/);
    expect(previous.getAttribute('aria-describedby')?.split(' ')).toContain(note.closest('p')?.id);
  });

  it('a number pointed at another application says where its calls and texts go, and that importing takes them over', async () => {
    const legacy: ProviderNumber = {
      ...(NUMBERS[0] as ProviderNumber),
      capabilities: { voice: true, sms: true, mms: false },
      voiceUrl: 'https://legacy-ivr.example.com/voice',
      smsApplication: { sid: 'AP42', friendlyName: 'Support bot' },
    };
    stubServer(() => ok({ numbers: [legacy, NUMBERS[1]] }));
    renderDialog();
    await screen.findByText('(415) 555-0101');
    const pointed = row('(415) 555-0101');
    const warning = within(pointed).getByText('Already pointed at another application.').parentElement as HTMLElement;
    expect(warning.textContent).toContain('Calls go to https://legacy-ivr.example.com/voice.');
    expect(warning.textContent).toContain('Texts go to the TwiML app “Support bot” (AP42).');
    expect(warning.textContent).toContain('Importing takes it over');
    expect(within(pointed).queryByText(/may stop it working/)).toBeNull();
    const box = within(pointed).getByRole('checkbox');
    expect(box.getAttribute('aria-describedby')?.split(' ')).toContain(warning.id);
    // The other rows keep the general warning (docs/product.md §2.11).
    expect(within(row('(415) 555-0102')).getByText(/may stop it working/)).toBeTruthy();

    await userEvent.setup().click(box);
    expect(
      within(pointed).getByText(
        'Incoming calls will be pointed at a Switchboard webhook instead of https://legacy-ivr.example.com/voice.',
      ),
    ).toBeTruthy();
    expect(
      within(pointed).getByText(
        'Incoming SMS will be pointed at a Switchboard webhook instead of the TwiML app “Support bot” (AP42).',
      ),
    ).toBeTruthy();
  });

  it('a failed import shows the server message and keeps the selection', async () => {
    stubServer((request) =>
      request.url === IMPORT_URL ? fail(409, 'That number is already in use', 'NUMBER_IN_USE') : ok({ numbers: NUMBERS }),
    );
    const events = userEvent.setup();
    const { onOpenChange } = renderDialog();
    await screen.findByText('(415) 555-0101');
    await events.click(numberBox('(415) 555-0102'));
    await events.click(importButton());

    expect((await screen.findByRole('alert')).textContent).toBe('That number is already in use');
    expect(numberBox('(415) 555-0102').checked).toBe(true);
    expect(importButton().textContent).toBe('Import 1 Number');
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it('says No phone numbers found for an empty account', async () => {
    stubServer(() => ok({ numbers: [] }));
    renderDialog();
    expect(await screen.findByText('No phone numbers found')).toBeTruthy();
    expect(importButton().disabled).toBe(true);
  });

  it('a failed fetch shows the fallback message', async () => {
    stubServer(() => new Response('oops', { status: 502 }));
    renderDialog();
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to fetch numbers');
  });

  it('the help link opens the help modal; Got it closes it and gives focus back', async () => {
    stubServer(() => ok({ numbers: NUMBERS }));
    const events = userEvent.setup();
    renderDialog();
    await screen.findByText('(415) 555-0101');
    const link = within(row('(415) 555-0101')).getByRole('button', { name: 'Learn more' });
    await events.click(link);

    const help = await screen.findByRole('dialog', { name: 'Numbers used elsewhere' });
    expect(within(help).getByText('Help Modal Content Coming Soon')).toBeTruthy();
    await events.click(within(help).getByRole('button', { name: 'Got it' }));
    await waitFor(() => expect(screen.queryByText('Help Modal Content Coming Soon')).toBeNull());
    expect(screen.getByRole('dialog', { name: 'Import Phone Numbers' })).toBeTruthy();
    expect(document.activeElement).toBe(link);
  });
});
