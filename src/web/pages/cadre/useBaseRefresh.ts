import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { GB_BASE_REFRESH_EVENT } from '../../../shared/constants';
import { pushEventName } from '../../core/layout/push';
import { moduleKeys } from '../../renderer/api';

/** After `gb_base_refresh` (a change to the cadre base committed), the open cadre pages read it again. */
export function useBaseRefresh(extraKeys: readonly unknown[][] = []): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const on = (e: Event) => {
      const module = ((e as CustomEvent<{ module?: string }>).detail?.module as string | undefined) ?? 'cadre';
      void queryClient.invalidateQueries({ queryKey: moduleKeys.all(module) });
      if (module !== 'cadre') void queryClient.invalidateQueries({ queryKey: moduleKeys.all('cadre') });
      for (const key of extraKeys) void queryClient.invalidateQueries({ queryKey: key });
    };
    const name = pushEventName(GB_BASE_REFRESH_EVENT);
    window.addEventListener(name, on);
    return () => window.removeEventListener(name, on);
  }, [queryClient, extraKeys]);
}
