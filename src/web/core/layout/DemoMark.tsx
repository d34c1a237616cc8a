import { Tag } from 'antd';
import { useConfigFlag } from '../stores/sysconfig';

/**
 * 演示数据: shown in the header and on the login page while the database holds the demo data (the server's
 * `demoData` setting, issue 38.16), so nobody takes a demo for the real system, nor the real one for a demo.
 */
export function DemoMark({ className }: { className?: string }) {
  const demo = useConfigFlag('demoData');
  return demo ? (
    <Tag color="orange" className={`demo-mark${className ? ` ${className}` : ''}`} title="本系统当前为演示环境，数据均为虚构的演示数据" data-testid="demo-mark">
      演示数据
    </Tag>
  ) : null;
}
