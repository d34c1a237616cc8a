import { download } from '../../../core/request/download';

/** `GET /api/users/template`: the .xlsx the user import reads. */
export const downloadUserTemplate = () => download('/api/users/template', undefined, '用户导入模板.xlsx').catch(() => undefined);
