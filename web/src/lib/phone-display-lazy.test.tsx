import { act, screen } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders, TEST_CALLING } from '../test-utils';
import { companySettingsQuery } from './company-settings';
import { usePhoneFormat } from './phone-display';
import { useLazyPhoneFormat } from './phone-display-lazy';

/** What the shell shows once the library is in, beside what a page shows with it bundled. */
function BothWays({ value }: { value: string }) {
  const format = useLazyPhoneFormat();
  const [later, setLater] = useState('');
  useEffect(() => {
    void format(value).then(setLater);
  }, [format, value]);
  return (
    <p>
      <span data-testid="page">{usePhoneFormat()(value)}</span>
      <span data-testid="shell">{later}</span>
    </p>
  );
}

const VALUES = ['+14155550101', '+442079460958', '+14165550101', '+15555550100', '911', 'anonymous'];

describe('useLazyPhoneFormat', () => {
  it('shows every number exactly as the pages do, for the company’s country and when it changes', async () => {
    const { queryClient } = renderWithProviders(
      <div>
        {VALUES.map((value) => (
          <BothWays key={value} value={value} />
        ))}
      </div>,
    );
    const shown = () =>
      screen.getAllByTestId('shell').map((shell, i) => [shell.textContent, screen.getAllByTestId('page')[i]?.textContent]);
    await screen.findByText('(415) 555-0101', { selector: '[data-testid="shell"]' });
    expect(shown().map(([shell]) => shell)).toEqual([
      '(415) 555-0101',
      '+44 20 7946 0958',
      // A Canadian number is not national for a US company.
      '+1 416 555 0101',
      '+1 555 555 0100',
      '911',
      'anonymous',
    ]);
    for (const [shell, page] of shown()) expect(shell).toBe(page);

    act(() =>
      queryClient.setQueryData(companySettingsQuery().queryKey, { default_country_code: { code: 'GB' }, calling: TEST_CALLING }),
    );
    await screen.findByText('020 7946 0958', { selector: '[data-testid="shell"]' });
    expect(shown().map(([shell]) => shell)[0]).toBe('+1 415 555 0101');
    for (const [shell, page] of shown()) expect(shell).toBe(page);
  });
});
