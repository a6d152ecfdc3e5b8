import { useEffect, useState } from 'react';

/** The time now, renewed every `intervalMs`: relative times on screen ("5m ago") age while it is open. */
export function useNow(intervalMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
