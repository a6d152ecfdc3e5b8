import { CALL_STATUSES, type CallStatus } from '@shared/contract/calls';
import { useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import type { CallFilters } from '../api/calls-api';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const NO_FILTERS: CallFilters = { status: '', from: '', to: '', voicemail: '' };

/** Marks an address this form wrote, so the form does not read back its own, possibly older, writes. */
const WRITTEN_BY_FORM = { callFilters: true } as const;

/** The filters from the address, anything unknown dropped, so a shared link or a reload keeps them. */
export function readFilters(params: URLSearchParams): CallFilters {
  const status = params.get('status') ?? '';
  const day = (name: string) => {
    const value = params.get(name) ?? '';
    return DAY.test(value) ? value : '';
  };
  return {
    status: (CALL_STATUSES as readonly string[]).includes(status) ? (status as CallStatus) : '',
    from: day('from'),
    to: day('to'),
    voicemail: params.get('voicemail') === 'true' ? 'true' : '',
  };
}

function toParams(filters: CallFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of ['status', 'from', 'to', 'voicemail'] as const) if (filters[name]) params.set(name, filters[name]);
  return params;
}

/**
 * Call History's filters, kept in the address. The form holds them itself and writes the address
 * after each change: react-router's `setSearchParams` builds on the params of the last render, so two
 * changes before the router renders (From, then To, typed quickly on a busy machine) lost the first.
 * An address this form did not write (a reload, a link, Back) replaces the form's values.
 */
export function useCallFilters() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const [filters, setFilters] = useState(() => readFilters(params));
  const latest = useRef(filters);
  latest.current = filters;

  const [seenKey, setSeenKey] = useState(location.key);
  if (location.key !== seenKey) {
    setSeenKey(location.key);
    const ownWrite = (location.state as typeof WRITTEN_BY_FORM | null)?.callFilters === true;
    if (!ownWrite) setFilters(readFilters(params));
  }

  const write = (next: CallFilters) => {
    latest.current = next;
    setFilters(next);
    setParams(toParams(next), { replace: true, state: WRITTEN_BY_FORM });
  };

  return {
    filters,
    setFilter: (name: keyof CallFilters, value: string) => write({ ...latest.current, [name]: value }),
    clearFilters: () => write(NO_FILTERS),
  };
}
