import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { App, Tooltip } from 'antd';
import { useEffect, useState } from 'react';

export const FULLSCREEN_UNSUPPORTED = '您的浏览器不支持全屏';

/** Whole-page fullscreen on and off; a warning where the browser does not allow it (spec §8). */
export function FullscreenToggle() {
  const { message } = App.useApp();
  const [full, setFull] = useState(() => !!document.fullscreenElement);
  useEffect(() => {
    const sync = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);
  const toggle = () => {
    if (!document.fullscreenEnabled) {
      void message.warning(FULLSCREEN_UNSUPPORTED);
      return;
    }
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen();
  };
  return (
    <Tooltip title={full ? '退出全屏' : '全屏'}>
      <button type="button" className="navbar-icon fullscreen-toggle" aria-label={full ? '退出全屏' : '全屏'} onClick={toggle}>
        {full ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
      </button>
    </Tooltip>
  );
}
