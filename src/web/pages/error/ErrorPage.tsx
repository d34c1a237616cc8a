import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';

/** The shared shape of the 404 and 401 pages. */
export function ErrorPage({ status, title, subTitle }: { status: '404' | '403'; title: string; subTitle: string }) {
  const navigate = useNavigate();
  return (
    <div className="error-page" style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Result
        status={status}
        title={title}
        subTitle={subTitle}
        extra={
          <Button type="primary" onClick={() => navigate('/')}>
            返回首页
          </Button>
        }
      />
    </div>
  );
}
