import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { request } from '../request/request';

/** Paths of the API that need the session token: an `<img src>` cannot send it, so they are fetched. */
const API_PATH = /^\/(api|auth)\//;

/**
 * A URL an `<img>` can show for `src`: API paths (`/api/file/view?id=3`) are fetched with the token and
 * shown through an object URL; other URLs (http, data:, static files) are used as they are.
 */
export function useFileObjectUrl(src: string | null | undefined): string | undefined {
  const fetched = !!src && API_PATH.test(src);
  const query = useQuery({
    queryKey: ['file-blob', src],
    queryFn: async () => (await request.get<Blob>(src!, { responseType: 'blob', skipErrorNotify: true })).data,
    enabled: fetched,
    staleTime: Infinity,
    gcTime: 5 * 60_000,
  });
  const objectUrl = useMemo(() => (query.data ? URL.createObjectURL(query.data) : undefined), [query.data]);
  useEffect(() => () => (objectUrl ? URL.revokeObjectURL(objectUrl) : undefined), [objectUrl]);
  if (!src) return undefined;
  return fetched ? objectUrl : src;
}
