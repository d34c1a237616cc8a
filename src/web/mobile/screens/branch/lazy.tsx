import { Suspense, lazy, type ComponentType } from 'react';

/** A screen loaded when first opened (the shell's first load stays small), with 加载中 until it arrives. */
export function lazyScreen<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  const Screen = lazy(load);
  return function LazyScreen(props: P) {
    return (
      <Suspense fallback={<p className="m-note">加载中…</p>}>
        <Screen {...props} />
      </Suspense>
    );
  };
}
