import { screen } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test-utils';
import { useLazyPhoneFormat } from './phone-display-lazy';

// The library's chunk cannot be fetched (offline, or a deploy replaced it).
vi.mock('@shared/phone-numbers', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

function Shown({ value }: { value: string }) {
  const format = useLazyPhoneFormat();
  const [text, setText] = useState('');
  useEffect(() => {
    void format(value).then(setText);
  }, [format, value]);
  return <p>{text}</p>;
}

describe('useLazyPhoneFormat without its chunk', () => {
  it('shows the number as stored rather than nothing', async () => {
    renderWithProviders(<Shown value="+14155550101" />);
    expect(await screen.findByText('+14155550101')).toBeTruthy();
  });
});
