import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** The token in `#token=` (as mails carry it) or, from links mailed before, in `?token=`. */
function tokenIn(search: string, hash: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') || new URLSearchParams(search).get('token') || null;
}

/**
 * The token a mailed link carries, read once, and then taken out of the address bar at once (a
 * replace, so history keeps no copy): the token is a key to an account or a team, and an address bar
 * gets shared, bookmarked and sent as Referer. Mails carry it in the fragment, which
 * browsers never send, so no server or CloudFront log holds it either.
 */
export function useLinkToken(): string | null {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => tokenIn(location.search, location.hash));

  useEffect(() => {
    if (!tokenIn(location.search, location.hash)) return;
    const rest = new URLSearchParams(location.search);
    rest.delete('token');
    const search = rest.size ? `?${rest}` : '';
    navigate({ pathname: location.pathname, search, hash: '' }, { replace: true, state: location.state });
  }, [location, navigate]);

  return token;
}
