import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders, TEST_CALLING } from '../test-utils';
import { companySettingsQuery } from './company-settings';
import { usePhoneFormat } from './phone-display';

function ShownNumber({ value }: { value: string }) {
  return <p>{usePhoneFormat()(value)}</p>;
}

describe('usePhoneFormat', () => {
  it('shows numbers of the company’s country nationally and others internationally', async () => {
    const { queryClient } = renderWithProviders(
      <>
        <ShownNumber value="+442079460958" />
        <ShownNumber value="+14155550101" />
      </>,
    );
    expect(screen.getByText('+44 20 7946 0958')).toBeTruthy();
    expect(screen.getByText('(415) 555-0101')).toBeTruthy();
    queryClient.setQueryData(companySettingsQuery().queryKey, { default_country_code: { code: 'GB' }, calling: TEST_CALLING });
    expect(await screen.findByText('020 7946 0958')).toBeTruthy();
    expect(screen.getByText('+1 415 555 0101')).toBeTruthy();
  });
});
