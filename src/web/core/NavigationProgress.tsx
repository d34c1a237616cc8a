import { useEffect, useState } from 'react';

type Phase = 'idle' | 'loading' | 'done';

/**
 * The loading bar during navigation (spec §2): a thin bar along the top that creeps towards the end
 * while a route loads, then fills and fades. A CSS animation instead of the nprogress package, which
 * cost the login page's first load 3 KB for the same bar.
 */
export function NavigationProgress({ loading }: { loading: boolean }) {
  const [phase, setPhase] = useState<Phase>('idle');
  useEffect(() => {
    if (loading) {
      setPhase('loading');
      return;
    }
    setPhase((p) => (p === 'loading' ? 'done' : p));
    const t = setTimeout(() => setPhase('idle'), 500);
    return () => clearTimeout(t);
  }, [loading]);
  if (phase === 'idle') return null;
  return (
    <div className={`nav-progress ${phase}`} role="progressbar" aria-label="页面加载中">
      <div className="bar" />
    </div>
  );
}
