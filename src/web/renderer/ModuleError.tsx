import { Button, Result } from 'antd';
import type { AxiosError } from 'axios';

/**
 * The error states of a module page. Loaded only when one shows: antd's Result carries its
 * 403/404/500 illustrations (about 10 KB gzip), which a list page that loads fine does not need.
 */
export function ModuleLoadError({ error, name, onRetry }: { error: unknown; name: string; onRetry: () => void }) {
  const status = (error as AxiosError | null)?.response?.status;
  return (
    <Result
      status={status === 403 ? '403' : status === 404 ? '404' : 'error'}
      title={status === 403 ? '没有访问权限' : status === 404 ? `模块 ${name} 不存在` : `${name}加载失败`}
      subTitle={status === 403 ? '请联系管理员为您分配该模块的权限。' : '请稍后重试，或联系管理员。'}
      extra={status === 403 ? undefined : <Button onClick={onRetry}>重试</Button>}
    />
  );
}

export function ListLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <Result
      status="error"
      title="数据加载失败"
      subTitle={(error as AxiosError<{ message?: string }>)?.response?.data?.message}
      extra={<Button onClick={onRetry}>重试</Button>}
    />
  );
}
