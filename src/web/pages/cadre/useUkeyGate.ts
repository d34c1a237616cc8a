import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { get } from '../../core/request/request';
import { UKEY_VALIDATED_EVENT, isUkeyValidated } from '../../core/ukey';

/**
 * The cadre pages are the ones the uKey protects (spec §6): when the school's setting names one of the
 * caller's roles and the account signs with a uKey (`GET /api/cadre/ukey`), the page waits until the uKey
 * was validated in this session (the layout's uKey client asks for the PIN and, where the server asks, has
 * the key sign the server's challenge: the cadre routes refuse until then).
 */
export function useUkeyGate(): { ready: boolean; waiting: boolean } {
  const needed = useQuery({ queryKey: ['cadre-ukey'], queryFn: () => get<{ required: boolean; verified?: boolean }>('/api/cadre/ukey'), staleTime: 60_000 });
  const [validated, setValidated] = useState(isUkeyValidated);
  useEffect(() => {
    const on = () => setValidated(true);
    window.addEventListener(UKEY_VALIDATED_EVENT, on);
    return () => window.removeEventListener(UKEY_VALIDATED_EVENT, on);
  }, []);
  if (!needed.data) return { ready: false, waiting: false };
  // `verified`: the server holds this session's proof of the key (issue 38.9), e.g. after a reload.
  const waiting = needed.data.required && !needed.data.verified && !validated;
  return { ready: !waiting, waiting };
}
