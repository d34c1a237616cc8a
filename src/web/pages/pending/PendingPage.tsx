import { ToolOutlined } from '@ant-design/icons';
import { Result } from 'antd';

/** What a menu entry shows while its module is not built yet: said plainly, never a blank page. */
export default function PendingPage({ title }: { title?: string }) {
  return (
    <Result
      className="pending-page"
      icon={<ToolOutlined style={{ color: '#c8161d' }} />}
      title={`${title ?? '该功能'}正在建设中`}
      subTitle="该模块尚未上线，敬请期待。如需使用，请联系系统管理员了解上线计划。"
    />
  );
}
