import {
  DEFAULT_RECORDING_DISCLOSURE,
  DEFAULT_VOICEMAIL_GREETING,
  MAX_RECORDING_DISCLOSURE_LENGTH,
  MAX_VOICEMAIL_GREETING_LENGTH,
} from '@shared/constants';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { companySettingsQuery } from '@/lib/company-settings';
import { deferred, endpoints, fail, ok, renderWithProviders, signInAs, stubServer, TEST_CALLING, urlOf } from '@/test-utils';
import { CallingPage } from './calling-page';

let signOut = () => {};
afterEach(() => signOut());

const countries = () => screen.getByRole('group', { name: 'Allowed countries' });
const rate = () => screen.getByLabelText('Calls a minute, for the whole company') as HTMLInputElement;
const segments = () => screen.getByLabelText('Text segments an hour, for the whole company') as HTMLInputElement;

describe('CallingPage', () => {
  it('sends the owner’s countries in the dialer’s order with the rate, showing the save under way, then that it was saved', async () => {
    signOut = signInAs('OWNER');
    const response = deferred();
    const requests = stubServer(() => response.promise);
    renderWithProviders(<CallingPage />);
    const user = userEvent.setup();
    await user.click(within(countries()).getByRole('button', { name: 'Clear' }));
    expect(within(countries()).getByText('Choose at least one country')).toBeTruthy();
    await user.click(within(countries()).getByRole('checkbox', { name: /Mexico/ }));
    await user.click(within(countries()).getByRole('checkbox', { name: /United States/ }));
    await user.clear(rate());
    await user.type(rate(), '12');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(screen.getByRole('button', { name: 'Saving…' }).hasAttribute('disabled')).toBe(true);
    expect(requests).toEqual([
      {
        url: urlOf(endpoints.updateCallingSettings),
        method: 'PUT',
        body: { allowedCountries: ['US', 'MX'], outboundCallsPerMinute: 12, textSegmentsPerHour: 2_000 },
      },
    ]);
    response.release(ok({ calling: { allowedCountries: ['US', 'MX'], outboundCallsPerMinute: 12 } }));
    expect(await screen.findByText('Calling settings saved.')).toBeTruthy();
    expect(within(countries()).getByText('2 of 50 countries can be called.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save changes' }).hasAttribute('disabled')).toBe(true);
  });

  it('names each country in words and dial code, with no flag characters a system without an emoji font draws as boxes', async () => {
    signOut = signInAs('OWNER');
    stubServer(() => ok({}));
    renderWithProviders(<CallingPage />);
    const labels = within(countries())
      .getAllByRole('checkbox')
      .map((box) => box.closest('label')?.textContent);
    expect(labels).toHaveLength(50);
    expect(labels[0]).toBe('United States+1');
    expect(labels.filter((label) => /[\u{1F1E6}-\u{1F1FF}]/u.test(label ?? ''))).toEqual([]);
  });

  it('starts from the stored countries and rate, with nothing to save', async () => {
    signOut = signInAs('OWNER');
    stubServer(() => ok({}));
    const { queryClient } = renderWithProviders(<CallingPage />);
    act(() =>
      queryClient.setQueryData(companySettingsQuery().queryKey, {
        default_country_code: { code: 'US' },
        calling: { ...TEST_CALLING, allowedCountries: ['US', 'GB'], outboundCallsPerMinute: 12 },
      }),
    );
    // The form starts again from the stored settings when they change: the group is a new element.
    await waitFor(() => expect(within(countries()).getByText('2 of 50 countries can be called.')).toBeTruthy());
    const ticked = (name: RegExp) => (within(countries()).getByRole('checkbox', { name }) as HTMLInputElement).checked;
    expect([ticked(/United States/), ticked(/United Kingdom/), ticked(/Canada/)]).toEqual([true, true, false]);
    expect(rate().value).toBe('12');
    expect(screen.getByRole('button', { name: 'Save changes' })).toHaveProperty('disabled', true);
  });

  it('says what is missing and keeps Save disabled until the choice can be saved; Space ticks a country', async () => {
    signOut = signInAs('OWNER');
    const requests = stubServer(() => ok({}));
    renderWithProviders(<CallingPage />);
    const user = userEvent.setup();
    const save = () => screen.getByRole('button', { name: 'Save changes' });
    expect(within(countries()).getByText('50 of 50 countries can be called.')).toBeTruthy();
    expect(save()).toHaveProperty('disabled', true);

    await user.click(within(countries()).getByRole('button', { name: 'Clear' }));
    expect(within(countries()).getByText('Choose at least one country')).toBeTruthy();
    expect(save()).toHaveProperty('disabled', true);
    // From the keyboard: Space ticks the focused box.
    within(countries())
      .getByRole('checkbox', { name: /United Kingdom/ })
      .focus();
    await user.keyboard(' ');
    expect((within(countries()).getByRole('checkbox', { name: /United Kingdom/ }) as HTMLInputElement).checked).toBe(true);
    expect(within(countries()).getByText('1 of 50 countries can be called.')).toBeTruthy();

    await user.clear(rate());
    await user.type(rate(), '0');
    expect(screen.getByText('Enter a whole number from 1 to 600')).toBeTruthy();
    expect(save()).toHaveProperty('disabled', true);
    await user.clear(rate());
    await user.type(rate(), '12');
    expect(screen.queryByText('Enter a whole number from 1 to 600')).toBeNull();
    expect(save()).toHaveProperty('disabled', false);
    expect(requests).toEqual([]);
  });

  it('saves the voicemail greeting a manager wrote, and blank as the default', async () => {
    signOut = signInAs('ADMIN');
    const requests = stubServer(({ body }) =>
      ok({ calling: { allowedCountries: ['US'], outboundCallsPerMinute: 30, ...(body as object) } }),
    );
    renderWithProviders(<CallingPage />);
    const user = userEvent.setup();
    const greeting = () => screen.getByRole('textbox', { name: 'Voicemail greeting' }) as HTMLTextAreaElement;
    expect(greeting().placeholder).toBe(DEFAULT_VOICEMAIL_GREETING);
    expect(greeting().maxLength).toBe(MAX_VOICEMAIL_GREETING_LENGTH);
    expect(greeting().getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText('Callers hear this when nobody answers. Leave empty for the default.')).toBeTruthy();
    await user.type(greeting(), '  Thanks for calling Analytical Engines. Leave a message.  ');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Calling settings saved.')).toBeTruthy();
    expect(requests.at(-1)?.body).toMatchObject({ voicemailGreeting: 'Thanks for calling Analytical Engines. Leave a message.' });
    expect(greeting().value).toBe('Thanks for calling Analytical Engines. Leave a message.');

    await user.clear(greeting());
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(requests).toHaveLength(2));
    expect(requests[1]?.body).toMatchObject({ voicemailGreeting: null });
  });

  it('saves the recording disclosure and the private lines’ recording a manager chose, saying the limit', async () => {
    signOut = signInAs('ADMIN');
    const requests = stubServer(({ body }) =>
      ok({ calling: { ...TEST_CALLING, allowedCountries: ['US'], outboundCallsPerMinute: 30, ...(body as object) } }),
    );
    renderWithProviders(<CallingPage />);
    const user = userEvent.setup();
    const disclosure = () => screen.getByRole('textbox', { name: 'Recording disclosure' }) as HTMLTextAreaElement;
    expect(disclosure().placeholder).toBe(DEFAULT_RECORDING_DISCLOSURE);
    expect(disclosure().maxLength).toBe(MAX_RECORDING_DISCLOSURE_LENGTH);
    const privateLines = screen.getByRole('checkbox', { name: /Record calls to private lines/ }) as HTMLInputElement;
    expect(privateLines.checked).toBe(false);
    expect(screen.getByRole('button', { name: 'Save changes' })).toHaveProperty('disabled', true);

    await user.type(disclosure(), '  Calls are recorded for training.  ');
    await user.click(privateLines);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Calling settings saved.')).toBeTruthy();
    expect(requests.at(-1)?.body).toMatchObject({
      recordingDisclosure: 'Calls are recorded for training.',
      recordPrivateLines: true,
    });
    expect(requests.at(-1)?.body).not.toHaveProperty('voicemailGreeting');
    expect(disclosure().value).toBe('Calls are recorded for training.');
    expect((screen.getByRole('checkbox', { name: /Record calls to private lines/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('shows an agent the greeting read-only', async () => {
    signOut = signInAs('AGENT');
    stubServer(() => ok({}));
    renderWithProviders(<CallingPage />);
    expect((screen.getByRole('textbox', { name: 'Voicemail greeting' }) as HTMLTextAreaElement).readOnly).toBe(true);
  });

  it('shows the server’s refusal and keeps what was chosen', async () => {
    signOut = signInAs('OWNER');
    stubServer(() => fail(409, 'The owner changed the outbound call rate meanwhile. Reload and try again.', 'CONFLICT'));
    renderWithProviders(<CallingPage />);
    const user = userEvent.setup();
    await user.click(within(countries()).getByRole('checkbox', { name: /Canada/ }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/changed the outbound call rate meanwhile/);
    expect((within(countries()).getByRole('checkbox', { name: /Canada/ }) as HTMLInputElement).checked).toBe(false);
  });

  it('lets the owner raise the company’s text segments an hour, saying the range until it fits', async () => {
    signOut = signInAs('OWNER');
    const requests = stubServer(() => ok({ calling: { ...TEST_CALLING, textSegmentsPerHour: 5_000 } }));
    renderWithProviders(<CallingPage />);
    const user = userEvent.setup();
    expect(segments().value).toBe('2000');
    await user.clear(segments());
    await user.type(segments(), '20');
    expect(screen.getByText('Enter a whole number from 50 to 100,000')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save changes' }).hasAttribute('disabled')).toBe(true);
    await user.clear(segments());
    await user.type(segments(), '5000{Enter}');
    expect(await screen.findByText('Calling settings saved.')).toBeTruthy();
    expect(requests.map((r) => r.body)).toEqual([
      { allowedCountries: TEST_CALLING.allowedCountries, outboundCallsPerMinute: 30, textSegmentsPerHour: 5_000 },
    ]);
  });

  it('lets an admin choose countries but not the rates', async () => {
    signOut = signInAs('ADMIN');
    stubServer(() => ok({}));
    renderWithProviders(<CallingPage />);
    expect(rate().readOnly).toBe(true);
    expect(segments().readOnly).toBe(true);
    expect(screen.getByText('Only the owner can change the call rate.')).toBeTruthy();
    expect(screen.getByText('Only the owner can change the texting limit.')).toBeTruthy();
    expect(
      within(countries())
        .getByRole('checkbox', { name: /Canada/ })
        .matches(':disabled'),
    ).toBe(false);
  });

  it('shows an agent the settings without a way to change them', async () => {
    signOut = signInAs('AGENT');
    stubServer(() => ok({}));
    renderWithProviders(<CallingPage />);
    expect(screen.getByText('Only the owner and admins can change these settings.')).toBeTruthy();
    await waitFor(() =>
      expect(
        within(countries())
          .getByRole('checkbox', { name: /Canada/ })
          .matches(':disabled'),
      ).toBe(true),
    );
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Clear' })).toBeNull();
    expect(rate().readOnly).toBe(true);
  });
});
