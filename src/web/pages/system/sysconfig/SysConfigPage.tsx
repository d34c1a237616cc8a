import { Form, Input } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { del, post, put } from '../../../core/request/request';
import { useSysConfig } from '../../../core/stores/sysconfig';
import { ellipsisCell, timeCell } from '../shared/cells';
import { CrudTable } from '../shared/CrudTable';
import { getPage } from '../shared/list';

interface ConfigRow {
  id: number;
  configKey: string;
  configValue: string;
  description: string;
  updateTime: string;
}

interface ConfigForm {
  configKey: string;
  configValue?: string;
  description?: string;
}

/** Values written as code or markup: edited in a text area. */
const MULTILINE_KEYS = new Set(['footHtml', 'passwordReg']);

const columns: ColumnsType<ConfigRow> = [
  { title: '参数键', dataIndex: 'configKey', key: 'configKey', sorter: true },
  { title: '参数值', dataIndex: 'configValue', render: ellipsisCell },
  { title: '描述', dataIndex: 'description', render: ellipsisCell },
  { title: '更新时间', dataIndex: 'updateTime', key: 'updateTime', sorter: true, render: timeCell },
];

/** A text box, or a text area for markup, patterns and long values. `id` links it to its label. */
function ValueInput({ id, value, onChange }: { id?: string; value?: string; onChange?: (v: string) => void }) {
  const key = Form.useWatch<string | undefined>('configKey');
  const multiline = MULTILINE_KEYS.has(key ?? '') || (value ?? '').length > 60 || (value ?? '').includes('\n');
  return multiline ? (
    <Input.TextArea id={id} rows={5} value={value} onChange={(e) => onChange?.(e.target.value)} />
  ) : (
    <Input id={id} value={value} onChange={(e) => onChange?.(e.target.value)} />
  );
}

/** System configuration (spec §3): the web app reloads its copy after every change. */
export default function SysConfigPage() {
  const reloadConfig = () => void useSysConfig.getState().load();
  return (
    <div className="system-page">
      <CrudTable<ConfigRow, ConfigForm>
        queryKey={['sysconfig']}
        load={getPage<ConfigRow>('/api/sysConfig')}
        columns={columns}
        search={{ placeholder: '参数键、值或描述' }}
        selectable
        onChanged={reloadConfig}
        remove={{
          permission: ['sysconfig:delete'],
          describe: (c) => c.configKey,
          run: (list) =>
            del(
              '/api/sysConfig/',
              list.map((c) => c.id),
            ),
        }}
        form={{
          entity: '参数',
          width: 640,
          addPermission: ['sysconfig:add'],
          editPermission: ['sysconfig:edit'],
          create: (values) => post('/api/sysConfig', { ...values, configValue: values.configValue ?? '' }),
          update: (values, row) => put('/api/sysConfig', { ...values, configValue: values.configValue ?? '', id: row.id }),
          render: () => (
            <>
              <Form.Item
                label="参数键"
                name="configKey"
                rules={[
                  { required: true, message: '请输入参数键' },
                  { pattern: /^[A-Za-z][\w.]*$/, message: '参数键以字母开头，只能包含字母、数字、下划线和点' },
                ]}
              >
                <Input placeholder="如：htmlTitle" />
              </Form.Item>
              <Form.Item label="参数值" name="configValue">
                <ValueInput />
              </Form.Item>
              <Form.Item label="描述" name="description">
                <Input.TextArea rows={2} />
              </Form.Item>
            </>
          ),
        }}
      />
    </div>
  );
}
