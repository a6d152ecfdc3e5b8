import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { makeObjectUrl, revokeObjectUrl } from './object-urls';

/** The query cache's key of a binary route's bytes: its URL, so each picture or recording is fetched once. */
export const binaryKey = (url: string) => ['binary', url] as const;

/**
 * A binary route's bytes as an object URL for `<img src>` or `<audio src>`, which cannot send
 * the bearer token themselves: `load` reads them with the API client (`api.blob`). Fetched only once
 * `enabled` (the bubble is in view, the person pressed Play); the Blob is cached per URL (the `url` the
 * API gives the media or voicemail: their bytes never change; the cache is cleared at sign-out); each
 * user of it has its own object URL, revoked when it unmounts or the session ends (object-urls.ts).
 */
export function useBinaryUrl(url: string, load: (signal: AbortSignal) => Promise<Blob>, enabled: boolean) {
  const query = useQuery({
    queryKey: binaryKey(url),
    queryFn: ({ signal }) => load(signal),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const blob = query.data;
  const [objectUrl, setObjectUrl] = useState<string>();
  useEffect(() => {
    if (!blob) return;
    const made = makeObjectUrl(blob);
    setObjectUrl(made);
    return () => {
      revokeObjectUrl(made);
      setObjectUrl(undefined);
    };
  }, [blob]);
  return {
    url: objectUrl,
    blob,
    isError: query.isError,
    error: query.error,
    isLoading: enabled && !objectUrl && !query.isError,
    retry: query.refetch,
  };
}
