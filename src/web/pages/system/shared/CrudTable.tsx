import { DeleteOutlined, PlusOutlined, ReloadOutlined, SearchOutlined, UndoOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Space, Table, Tooltip, type FormInstance, type TableProps } from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { useEffect, useId, useMemo, useState, type Key, type ReactNode } from 'react';
import { checkPermission } from '../../../core/Permission';
import { useSession } from '../../../core/stores/session';
import { FormModal } from './FormModal';
import { PAGE_SIZE_OPTIONS, type ListLoader } from './list';
import { useConfirmRun, type ConfirmRunOptions } from '../../../core/useConfirmRun';
import './system.css';

/** What toolbars and row actions can do with the table. */
export interface CrudApi<T, V> {
  selected: T[];
  reload(): void;
  openCreate(initial?: Partial<V>): void;
  openEdit(record: T): void;
  confirmRun(options: ConfirmRunOptions): void;
  confirmRemove(records: T[]): void;
}

export interface CrudFormConfig<T, V> {
  /** The thing edited, for the titles: 新增用户 / 编辑用户. */
  entity: string;
  width?: number;
  labelWidth?: number;
  addPermission?: string[];
  editPermission?: string[];
  /** Values of a new record. */
  initialValues?: Partial<V>;
  /** Values of the record being edited. */
  toValues?: (record: T) => Partial<V>;
  /** `rows`: what the table shows now (a tree for the menus), for pickers inside the form. */
  render: (ctx: { form: FormInstance<V>; editing: T | undefined; rows: T[] }) => ReactNode;
  create?: (values: V) => Promise<unknown>;
  update?: (values: V, record: T) => Promise<unknown>;
}

export interface CrudTableProps<T extends object, V extends object> {
  /** The cache key of the list: the loader's identity (tab, selected parent, ...) belongs in it. */
  queryKey: readonly unknown[];
  load: ListLoader<T>;
  /** A function when a cell needs the table (a switch that reloads it, for instance). */
  columns: ColumnsType<T> | ((api: CrudApi<T, V>) => ColumnsType<T>);
  rowKey?: string | ((record: T) => Key);
  /** The search bar: a keyword input (`param`, default `blurry`) and more filter fields. */
  search?: { placeholder?: string; param?: string; fields?: ReactNode };
  /** Row checkboxes; a function tells which rows may be picked. */
  selectable?: boolean | ((record: T) => boolean);
  form?: CrudFormConfig<T, V>;
  /** `note` follows the delete question (default: 删除后不能恢复。). */
  remove?: { run: (records: T[]) => Promise<unknown>; permission: string[]; describe?: (record: T) => string; note?: string };
  /** Buttons after 新增 and 删除. */
  toolbar?: (api: CrudApi<T, V>) => ReactNode;
  /** Row buttons between 编辑 and 删除, shown to holders of `rowActionsPermission` (everyone when left out). */
  rowActions?: (record: T, api: CrudApi<T, V>) => ReactNode;
  rowActionsPermission?: string[];
  actionsWidth?: number;
  /** Called after any change made through the table (save, delete, confirmRun). */
  onChanged?: () => void;
  tableProps?: Omit<TableProps<T>, 'columns' | 'dataSource' | 'rowKey'>;
}

interface ModalState<T, V> {
  open: boolean;
  editing?: T;
  initial?: Partial<V>;
}

/**
 * The shape every administration list shares: search bar, toolbar, antd table with server-side paging
 * (0-based on the wire, 1-based in antd), a dialog form for create/edit, confirmed deletes.
 */
export function CrudTable<T extends object, V extends object = Record<string, unknown>>(props: CrudTableProps<T, V>) {
  const {
    queryKey,
    load,
    columns,
    rowKey = 'id',
    search,
    selectable,
    form: formConfig,
    remove,
    toolbar,
    rowActions,
    rowActionsPermission,
    actionsWidth,
    onChanged,
    tableProps,
  } = props;
  const { message } = App.useApp();
  const roles = useSession((s) => s.roles);
  const queryClient = useQueryClient();
  const confirmRun = useConfirmRun();
  const [searchForm] = Form.useForm();
  // Its own name keeps the search fields' ids apart from the dialog's (both may have `enabled`).
  const searchName = `search${useId()}`;
  const [form] = Form.useForm<V>();
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(PAGE_SIZE_OPTIONS[0]);
  const [sort, setSort] = useState<string>();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [selectedKeys, setSelectedKeys] = useState<Key[]>([]);
  const [selected, setSelected] = useState<T[]>([]);
  const [modal, setModal] = useState<ModalState<T, V>>({ open: false });

  const query = useQuery({
    queryKey: [...queryKey, { page, size, sort, filters }],
    queryFn: () => load({ page, size, sort, filters }),
    placeholderData: keepPreviousData,
  });
  const answer = query.data;
  const rows = useMemo(() => (Array.isArray(answer) ? answer : (answer?.content ?? [])), [answer]);
  const total = Array.isArray(answer) ? answer.length : (answer?.totalElements ?? 0);
  const paged = !Array.isArray(answer);

  // A delete can empty the last page: step back to the new last page.
  useEffect(() => {
    if (paged && page > 0 && rows.length === 0 && total > 0) setPage(Math.max(0, Math.ceil(total / size) - 1));
  }, [paged, page, rows.length, total, size]);

  const clearSelection = () => {
    setSelectedKeys([]);
    setSelected([]);
  };
  const reload = () => {
    clearSelection();
    void queryClient.invalidateQueries({ queryKey: [...queryKey] });
  };
  const changed = () => {
    reload();
    onChanged?.();
  };

  const api: CrudApi<T, V> = {
    selected,
    reload,
    openCreate: (initial) => setModal({ open: true, initial: { ...formConfig?.initialValues, ...initial } }),
    openEdit: (record) => setModal({ open: true, editing: record, initial: formConfig?.toValues ? formConfig.toValues(record) : (record as Partial<V>) }),
    confirmRun: (options) => confirmRun({ ...options, after: () => (options.after?.(), changed()) }),
    confirmRemove: (records) => {
      if (!remove || !records.length) return;
      const one = records.length === 1 && remove.describe ? `“${remove.describe(records[0])}”` : `选中的 ${records.length} 条数据`;
      confirmRun({
        title: '删除确认',
        content: `确定删除${one}吗？${remove.note ?? '删除后不能恢复。'}`,
        okText: '删除',
        danger: true,
        run: () => remove.run(records),
        success: '删除成功',
        after: changed,
      });
    },
  };

  const submitForm = async (values: V) => {
    if (!formConfig) return;
    if (modal.editing) {
      await formConfig.update?.(values, modal.editing);
      message.success('修改成功');
    } else {
      await formConfig.create?.(values);
      message.success('新增成功');
    }
    setModal({ open: false });
    changed();
  };

  // A button without a permission list is for everyone; the action column is left out when no button is left.
  const allowed = (permissions: string[] | undefined) => !permissions || checkPermission(roles, permissions);
  const canAdd = !!formConfig?.create && allowed(formConfig.addPermission);
  const canEdit = !!formConfig?.update && allowed(formConfig.editPermission);
  const canRemove = !!remove && allowed(remove.permission);
  const hasRowActions = !!rowActions && allowed(rowActionsPermission);
  const actionColumn: ColumnsType<T> =
    canEdit || canRemove || hasRowActions
      ? [
          {
            title: '操作',
            key: '__actions',
            fixed: 'right',
            width: actionsWidth ?? 150,
            render: (_: unknown, record: T) => (
              <Space size={0} className="row-actions">
                {canEdit && (
                  <Button type="link" size="small" onClick={() => api.openEdit(record)}>
                    编辑
                  </Button>
                )}
                {hasRowActions && rowActions?.(record, api)}
                {canRemove && (
                  <Button type="link" size="small" danger onClick={() => api.confirmRemove([record])}>
                    删除
                  </Button>
                )}
              </Space>
            ),
          },
        ]
      : [];

  const hasTools = canAdd || (canRemove && !!selectable) || !!toolbar;
  const reloadButton = (
    <Tooltip title="刷新">
      <Button shape="circle" icon={<ReloadOutlined />} aria-label="刷新" onClick={reload} />
    </Tooltip>
  );

  const keyword = search?.param ?? 'blurry';
  const applySearch = () => {
    setFilters(searchForm.getFieldsValue());
    setPage(0);
    clearSelection();
  };
  const resetSearch = () => {
    searchForm.resetFields();
    applySearch();
  };

  const onTableChange: TableProps<T>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'sort') {
      const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T>;
      const field = s?.columnKey ?? s?.field;
      setSort(s?.order && field ? `${String(field)},${s.order === 'ascend' ? 'asc' : 'desc'}` : undefined);
      setPage(0);
    } else if (extra.action === 'paginate') {
      if (pagination.pageSize && pagination.pageSize !== size) {
        setSize(pagination.pageSize);
        setPage(0);
      } else setPage((pagination.current ?? 1) - 1);
    }
  };

  return (
    <div className="crud-table">
      {search && (
        <Form form={searchForm} name={searchName} layout="inline" className="crud-search" onFinish={applySearch}>
          {search.placeholder !== undefined && (
            <Form.Item name={keyword}>
              <Input allowClear placeholder={search.placeholder} style={{ width: 220 }} />
            </Form.Item>
          )}
          {search.fields}
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
                搜索
              </Button>
              <Button icon={<UndoOutlined />} onClick={resetSearch}>
                重置
              </Button>
              {!hasTools && reloadButton}
            </Space>
          </Form.Item>
        </Form>
      )}
      {hasTools ? (
        <div className="crud-toolbar">
          <Space wrap>
            {canAdd && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => api.openCreate()}>
                新增
              </Button>
            )}
            {canRemove && selectable && (
              <Button danger icon={<DeleteOutlined />} disabled={!selected.length} onClick={() => api.confirmRemove(selected)}>
                删除
              </Button>
            )}
            {toolbar?.(api)}
          </Space>
          {reloadButton}
        </div>
      ) : (
        !search && <div className="crud-toolbar">{reloadButton}</div>
      )}
      <Table<T>
        rowKey={rowKey}
        columns={[...(typeof columns === 'function' ? columns(api) : columns), ...actionColumn]}
        dataSource={rows}
        loading={query.isFetching}
        scroll={{ x: 'max-content' }}
        rowSelection={
          selectable
            ? {
                selectedRowKeys: selectedKeys,
                onChange: (keys, picked) => {
                  setSelectedKeys(keys);
                  setSelected(picked);
                },
                getCheckboxProps: typeof selectable === 'function' ? (record) => ({ disabled: !selectable(record) }) : undefined,
              }
            : undefined
        }
        pagination={
          paged
            ? {
                current: page + 1,
                pageSize: size,
                total,
                showSizeChanger: true,
                pageSizeOptions: PAGE_SIZE_OPTIONS,
                showTotal: (n) => `共 ${n} 条`,
              }
            : false
        }
        onChange={onTableChange}
        {...tableProps}
      />
      {formConfig && (
        <FormModal<V>
          open={modal.open}
          title={`${modal.editing ? '编辑' : '新增'}${formConfig.entity}`}
          form={form}
          width={formConfig.width}
          labelWidth={formConfig.labelWidth}
          initialValues={modal.initial}
          onSubmit={submitForm}
          onCancel={() => setModal({ open: false })}
        >
          {formConfig.render({ form, editing: modal.editing, rows })}
        </FormModal>
      )}
    </div>
  );
}
