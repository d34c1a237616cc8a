import { ConfigProvider, type ConfigProviderProps } from 'antd';
// The compact algorithm alone: antd's `theme` object would also bring the dark algorithm and its colours.
import compactAlgorithm from 'antd/es/theme/themes/compact';
import type { SizeType } from 'antd/es/config-provider/SizeContext';
import { useEffect } from 'react';
import type { UiSize } from '../../../shared/constants';
import { useApp } from '../stores/app';
import { useSettings } from '../stores/settings';
import { useReducedMotion } from '../useReducedMotion';

/**
 * The spec's four UI sizes on antd's three: default → large, medium → middle, small → small, and mini →
 * small with the compact algorithm (tighter spacing and controls).
 */
export function antdSizeOf(size: UiSize): { componentSize: SizeType; compact: boolean } {
  switch (size) {
    case 'default':
      return { componentSize: 'large', compact: false };
    case 'medium':
      return { componentSize: 'middle', compact: false };
    case 'small':
      return { componentSize: 'small', compact: false };
    case 'mini':
      return { componentSize: 'small', compact: true };
  }
}

/**
 * antd's ConfigProvider with the theme colour of the settings drawer, the UI size of the navbar, and no
 * animations for a user whose system asks for reduced motion.
 */
export function ThemedConfigProvider(props: Omit<ConfigProviderProps, 'theme' | 'componentSize'>) {
  const colorPrimary = useSettings((s) => s.theme);
  const size = useApp((s) => s.size);
  const { componentSize, compact } = antdSizeOf(size);
  const reducedMotion = useReducedMotion();
  // The layout's own styles (active tag, loading bar) follow the theme colour through this variable.
  useEffect(() => {
    document.documentElement.style.setProperty('--dj-primary', colorPrimary);
  }, [colorPrimary]);
  return <ConfigProvider {...props} componentSize={componentSize} theme={{ token: { colorPrimary, motion: !reducedMotion }, ...(compact ? { algorithm: compactAlgorithm } : {}) }} />;
}
