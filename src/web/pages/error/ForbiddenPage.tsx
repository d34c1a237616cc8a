import { ErrorPage } from './ErrorPage';

export default function ForbiddenPage() {
  return <ErrorPage status="403" title="401" subTitle="抱歉，您没有访问该页面的权限。如有疑问，请联系系统管理员。" />;
}
