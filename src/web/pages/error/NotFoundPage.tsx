import { ErrorPage } from './ErrorPage';

export default function NotFoundPage() {
  return <ErrorPage status="404" title="404" subTitle="抱歉，您访问的页面不存在。请检查网址是否正确，或返回首页。" />;
}
