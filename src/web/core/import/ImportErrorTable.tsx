import { Table } from 'antd';
import type { ImportRowError } from '../../../shared/module-schema/api';

/** The bad rows of an import: (sheet and) row number, column and the problem, eight to a page. */
export function ImportErrorTable({ errors }: { errors: ImportRowError[] }) {
  return (
    <Table<ImportRowError>
      size="small"
      rowKey={(e) => `${e.sheet ?? ''}-${e.row}-${e.column}-${e.message}`}
      dataSource={errors}
      pagination={{ pageSize: 8, size: 'small', showSizeChanger: false, showTotal: (t) => `共 ${t} 条` }}
      columns={[
        // A child table's sheet (an exported file imported back) prefixes the row.
        { title: '行号', dataIndex: 'row', width: 70, render: (v: number, e) => (e.sheet ? `${e.sheet} ${v}` : v) },
        { title: '列', dataIndex: 'column', width: 140, render: (v: string) => v || '—' },
        { title: '错误信息', dataIndex: 'message' },
      ]}
    />
  );
}
