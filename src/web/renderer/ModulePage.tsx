/**
 * The page of a module (menu component `module:<id>`): its list with the filter bar, toolbar and table,
 * the create/edit dialog, the detail drawer with children and trail, and the import dialog. Everything
 * comes from the merged schema and the caller's actions of `GET /api/m/{module}/schema`.
 */
import { AuditOutlined, DeleteOutlined, DownloadOutlined, FileExcelOutlined, PlusOutlined, ReloadOutlined, RestOutlined, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import type { RowSelectionState, SortingState, Updater } from '@tanstack/react-table';
import { Button, Modal, Pagination, Skeleton, Space, Tooltip } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { modulePermissions } from '../../shared/module-schema/fields';
import { editLockReason } from '../../shared/module-schema/workflow';
import { Permission, useHasPermission } from '../core/Permission';
import { useOnceTrue } from '../core/useOnceTrue';
import { useConfirmRun } from '../core/useConfirmRun';
import { useJobParam } from '../core/jobs/useJob';
import { moduleApi, moduleKeys, useModuleMeta, type ModuleMeta, type ModuleRecord } from './api';
import { ColumnChooser, useColumnVisibility } from './list/ColumnChooser';
import { buildColumns, DataTable } from './list/DataTable';
import { FilterBar } from './list/FilterBar';
import { useListQuery } from './list/useListQuery';
import { defaultSort, listColumns, listFilters } from './model';
import { ProgressView } from './workflow/ProgressView';
import { WaitingTabs, type ListTab } from './workflow/WaitingTabs';
import './renderer.css';

// The form (rjsf, ajv, the compiled validators), the detail drawer, the import dialog and the error
// views load when first needed, so the list shows after a much smaller download. The form is fetched
// when the browser is idle after the list shows (and on pointing at 新增/编辑); until it is there, a
// click opens the dialog's frame with a skeleton at once.
const loadForm = () => import('./form/FormDialog');
const loadDetail = () => import('./detail/DetailDrawer');
const FormDialog = lazy(() => loadForm().then((m) => ({ default: m.FormDialog })));
const DetailDrawer = lazy(() => loadDetail().then((m) => ({ default: m.DetailDrawer })));
const ImportDialog = lazy(() => import('./list/ImportDialog').then((m) => ({ default: m.ImportDialog })));
const ModuleLoadError = lazy(() => import('./ModuleError').then((m) => ({ default: m.ModuleLoadError })));
const ListLoadError = lazy(() => import('./ModuleError').then((m) => ({ default: m.ListLoadError })));
const DeletedDialog = lazy(() => import('./deleted/DeletedDialog').then((m) => ({ default: m.DeletedDialog })));
const JobProgress = lazy(() => import('../core/jobs/JobProgress'));
const BatchDialog = lazy(() => import('./workflow/BatchDialog').then((m) => ({ default: m.BatchDialog })));

export const PAGE_SIZES = [10, 20, 50, 100, 500, 1000];

/** Runs `fn` when the browser has nothing better to do (a timeout where requestIdleCallback is missing). */
function whenIdle(fn: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(fn, { timeout: 3000 });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = window.setTimeout(fn, 500);
  return () => window.clearTimeout(timer);
}

/**
 * The create/edit dialog's frame while its code loads: same size and title, a skeleton for the form.
 * `onShown` tells that the dialog will replace it on screen (and must then appear without zooming in).
 */
function FormDialogFrame({ title, onClose, onShown }: { title: string; onClose: () => void; onShown: () => void }) {
  useEffect(onShown, [onShown]);
  return (
    <Modal open title={title} width={700} centered mask={{ closable: false }} keyboard={false} onCancel={onClose} className="rf-dialog rf-dialog-loading" footer={null}>
      <Skeleton active paragraph={{ rows: 8 }} />
    </Modal>
  );
}

/**
 * A row action as a plain button (rows stay light: no tooltip component per cell); a record whose state
 * does not allow it gets it greyed out with the reason as its title (aria-disabled, not disabled: a
 * disabled button shows no title on hover).
 */
function LockedLink({ reason, danger, onClick, onPointerEnter, children }: { reason?: string | false; danger?: boolean; onClick: () => void; onPointerEnter?: () => void; children: ReactNode }) {
  const cls = danger ? 'rt-link rt-danger' : 'rt-link';
  if (reason) {
    return (
      <button type="button" className={`${cls} rt-link-locked`} aria-disabled="true" title={reason}>
        {children}
      </button>
    );
  }
  return (
    <button type="button" className={cls} onPointerEnter={onPointerEnter} onClick={onClick}>
      {children}
    </button>
  );
}

const sortParam = (sorting: SortingState) => (sorting[0] ? `${sorting[0].id},${sorting[0].desc ? 'desc' : 'asc'}` : undefined);
const resolve = <T,>(updater: Updater<T>, old: T): T => (typeof updater === 'function' ? (updater as (o: T) => T)(old) : updater);

export interface ModulePageExtras {
  /** Shown above the filter bar (a page's charts). */
  header?: ReactNode;
  /** Merged into every list request (a page's own quick filters). */
  extraFilter?: Record<string, unknown>;
}

function ModuleList({ module, meta, header, extraFilter }: { module: string; meta: ModuleMeta } & ModulePageExtras) {
  const { schema } = meta;
  const workflow = schema['x-workflow'];
  // A link to a list's 待我审批 (`?tab=waiting`, the workbench's figures) opens on that tab.
  const [params, setParams] = useSearchParams();
  const [tab, setTab] = useState<ListTab>(() => (workflow && params.get('tab') === 'waiting' ? 'waiting' : 'all'));
  const [batching, setBatching] = useState(false);
  const [showDeleted, setShowDeleted] = useState(false);
  const perms = useMemo(() => modulePermissions(schema), [schema]);
  const specs = useMemo(() => listColumns(schema), [schema]);
  const filters = useMemo(() => listFilters(schema), [schema]);
  const queryClient = useQueryClient();
  const confirmRun = useConfirmRun();
  const [filter, setFilter] = useState<Record<string, unknown>>({});
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(PAGE_SIZES[1]);
  const [sorting, setSorting] = useState<SortingState>(() => {
    const d = defaultSort(schema);
    return d ? [d] : [];
  });
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [visibility, setVisibility] = useColumnVisibility(module);
  const [dialog, setDialog] = useState<{ editing?: ModuleRecord } | null>(null);
  // State, not a ref: the dialog element is created before the frame mounts, so it must re-render to see it.
  const [framed, setFramed] = useState(false);
  const markFramed = useCallback(() => setFramed(true), []);
  const [detail, setDetail] = useState<number>();
  const [importing, setImporting] = useState(false);
  const used = { detail: useOnceTrue(detail !== undefined), import: useOnceTrue(importing) };
  const [exporting, setExporting] = useState(false);
  // An export or import running as a job: started here, or the page opened from its message (`?job=`).
  const [jobId, setJobId] = useJobParam();
  const { pathname } = useLocation();

  const sort = sortParam(sorting);
  const body = useMemo(() => ({ ...filter, ...extraFilter, ...((tab === 'waiting' || tab === 'later') && { $waiting: tab === 'later' ? 'later' : true }) }), [filter, extraFilter, tab]);
  const list = useListQuery(module, body, { page, size, sort });
  // A link to one record (a to-do's or a reminder's `?id=`) opens its detail.
  const linked = Number(params.get('id'));
  useEffect(() => {
    if (Number.isSafeInteger(linked) && linked > 0) setDetail(linked);
  }, [linked]);
  const closeDetail = () => {
    setDetail(undefined);
    if (params.has('id')) {
      params.delete('id');
      setParams(params, { replace: true });
    }
  };
  const rows = useMemo(() => list.data?.content ?? [], [list.data]);
  const total = list.data?.totalElements ?? 0;

  // Once the list shows, fetch the form in idle time for those who may add or edit.
  const mayWrite = meta.actions.includes('add') || meta.actions.includes('edit');
  const listShown = list.isSuccess;
  useEffect(() => (listShown && mayWrite ? whenIdle(() => void loadForm()) : undefined), [listShown, mayWrite]);

  const reload = () => void queryClient.invalidateQueries({ queryKey: moduleKeys.all(module) });
  const remove = (records: ModuleRecord[]) =>
    confirmRun({
      title: '删除确认',
      content: `${records.length === 1 ? '确定删除这条记录吗？' : `确定删除选中的 ${records.length} 条记录吗？`}删除后可由管理员在“已删除记录”中恢复。`,
      okText: '删除',
      danger: true,
      run: () =>
        moduleApi.remove(
          module,
          records.map((r) => r.id),
        ),
      success: '删除成功',
      after: () => {
        setSelection({});
        reload();
      },
    });

  // Row actions read the latest handlers through a ref, so the column definitions stay the same objects.
  const handlers = useRef({ view: (_r: ModuleRecord) => {}, edit: (_r: ModuleRecord) => {}, remove: (_r: ModuleRecord) => {} });
  handlers.current = { view: (r) => setDetail(r.id), edit: (r) => setDialog({ editing: r }), remove: (r) => remove([r]) };
  const can = { view: useHasPermission([perms.view]), edit: useHasPermission([perms.edit]), remove: useHasPermission([perms.delete]) };
  const columns = useMemo(
    () =>
      buildColumns(specs, {
        width: 150,
        // Plain buttons: rows re-render with other records as they scroll, so their actions stay light.
        render: (r) => (
          <span className="rt-row-actions">
            {can.view && (
              <button type="button" className="rt-link" onPointerEnter={() => void loadDetail()} onClick={() => handlers.current.view(r)}>
                {workflow ? '查看办理' : '查看'}
              </button>
            )}
            {can.edit && <LockedLink reason={workflow && editLockReason(workflow, r[workflow.stateField], '修改')} onPointerEnter={() => void loadForm()} onClick={() => handlers.current.edit(r)}>编辑</LockedLink>}
            {can.remove && <LockedLink danger reason={workflow && editLockReason(workflow, r[workflow.stateField], '删除')} onClick={() => handlers.current.remove(r)}>删除</LockedLink>}
          </span>
        ),
      }),
    [specs, can.view, can.edit, can.remove, workflow],
  );

  const onSortingChange = useCallback((u: Updater<SortingState>) => {
    setSorting((old) => resolve(u, old));
    setPage(0);
  }, []);
  const onSelectionChange = useCallback((u: Updater<RowSelectionState>) => setSelection((old) => resolve(u, old)), []);
  const selectedRecords = rows.filter((r) => selection[String(r.id)]);
  // A record in flight is deleted by no one: the batch delete says which selected record holds it back.
  const deleteLock = workflow && selectedRecords.map((r) => editLockReason(workflow, r[workflow.stateField], '删除')).find(Boolean);

  const exportList = async () => {
    setExporting(true);
    try {
      const { jobId: started } = await moduleApi.exportFile(module, schema.title, { ...filter, ...extraFilter }, sort, pathname);
      if (started) setJobId(started);
    } catch {
      // Shown by the request layer.
    } finally {
      setExporting(false);
    }
  };

  const loadError = list.isError ? (
    <Suspense fallback={null}>
      <ListLoadError error={list.error} onRetry={() => void list.refetch()} />
    </Suspense>
  ) : undefined;

  return (
    <div className="rt-page">
      {header}
      {jobId !== undefined && (
        <Suspense fallback={null}>
          <JobProgress id={jobId} onClose={() => setJobId(undefined)} />
        </Suspense>
      )}
      {filters.length > 0 && (
        <div className="rt-card rt-filter-card">
          <FilterBar
            specs={filters}
            onSearch={(body) => {
              setFilter(body);
              setPage(0);
              setSelection({});
            }}
          />
        </div>
      )}
      <div className="rt-card">
        {workflow && (
          <WaitingTabs
            module={module}
            value={tab}
            later={Object.values(workflow.transitions).some((t) => t?.notBefore)}
            progress={schema['x-progress'] ? (schema['x-progress'].title ?? '进度') : undefined}
            onChange={(t) => {
              setTab(t);
              setPage(0);
              setSelection({});
            }}
          />
        )}
        {tab === 'progress' ? (
          <ProgressView module={module} schema={schema} filter={body} onOpen={setDetail} />
        ) : (
          <>
            <div className="rt-toolbar">
              <Space wrap>
                {workflow && (
                  <Button icon={<AuditOutlined />} disabled={!selectedRecords.length} onClick={() => setBatching(true)} className="wf-batch-open">
                    批量办理{selectedRecords.length ? `（${selectedRecords.length}）` : ''}
                  </Button>
                )}
                <Permission roles={[perms.add]}>
                  <Button type="primary" icon={<PlusOutlined />} onPointerEnter={() => void loadForm()} onClick={() => setDialog({})}>
                    新增
                  </Button>
                </Permission>
                <Permission roles={[perms.delete]}>
                  <Tooltip title={deleteLock ? `选中的记录中有${deleteLock}` : undefined}>
                    <Button danger icon={<DeleteOutlined />} disabled={!selectedRecords.length || !!deleteLock} onClick={() => remove(selectedRecords)} className="rt-delete-selected">
                      删除{selectedRecords.length ? `（${selectedRecords.length}）` : ''}
                    </Button>
                  </Tooltip>
                </Permission>
                <Permission roles={[perms.import]}>
                  <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
                    导入
                  </Button>
                </Permission>
                <Permission roles={[perms.import]}>
                  <Button icon={<FileExcelOutlined />} onClick={() => void moduleApi.template(module, schema.title)}>
                    下载模板
                  </Button>
                </Permission>
                <Permission roles={[perms.export]}>
                  <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportList()}>
                    导出
                  </Button>
                </Permission>
                {meta.actions.includes('deleted') && (
                  <Button icon={<RestOutlined />} onClick={() => setShowDeleted(true)} className="rt-deleted-open">
                    已删除记录
                  </Button>
                )}
              </Space>
              <Space>
                {selectedRecords.length > 0 && (
                  <span className="rt-selected">
                    已选 {selectedRecords.length} 项 <a onClick={() => setSelection({})}>清空</a>
                  </span>
                )}
                <Tooltip title="刷新">
                  <Button icon={<ReloadOutlined />} aria-label="刷新" onClick={() => void list.refetch()} />
                </Tooltip>
                <ColumnChooser specs={specs} visibility={visibility} onChange={setVisibility} />
              </Space>
            </div>
            <DataTable
              columns={columns}
              specs={specs}
              rows={rows}
              sorting={sorting}
              onSortingChange={onSortingChange}
              rowSelection={selection}
              onRowSelectionChange={onSelectionChange}
              columnVisibility={visibility}
              selectable={meta.actions.includes('delete') || !!workflow}
              loading={list.isFetching}
              error={loadError}
            />
            <div className="rt-pagination">
              <Pagination
                current={page + 1}
                pageSize={size}
                total={total}
                showSizeChanger
                showQuickJumper
                pageSizeOptions={PAGE_SIZES}
                showTotal={(t) => `共 ${t} 条`}
                onChange={(p, s) => {
                  setSelection({});
                  if (s !== size) {
                    setSize(s);
                    setPage(0);
                  } else setPage(p - 1);
                }}
              />
            </div>
          </>
        )}
      </div>
      {dialog && (
        <Suspense fallback={<FormDialogFrame title={`${dialog.editing ? '编辑' : '新增'}${schema.title}`} onClose={() => setDialog(null)} onShown={markFramed} />}>
          <FormDialog
            module={module}
            schema={schema}
            open
            editing={dialog.editing}
            instant={framed}
            onClose={() => {
              setFramed(false);
              setDialog(null);
            }}
          />
        </Suspense>
      )}
      <Suspense fallback={null}>
        {/* Kept mounted once used: the drawer animates closed, the import dialog keeps a running job's progress. */}
        {used.detail && <DetailDrawer module={module} schema={schema} id={detail} onClose={closeDetail} onEdit={(r) => setDialog({ editing: r })} />}
        {batching && (
          <BatchDialog
            module={module}
            schema={schema}
            records={selectedRecords}
            onClose={(done) => {
              setBatching(false);
              if (done) setSelection({});
            }}
          />
        )}
        {showDeleted && <DeletedDialog module={module} schema={schema} onClose={() => setShowDeleted(false)} />}
        {used.import && <ImportDialog module={module} title={schema.title} open={importing} onClose={() => setImporting(false)} />}
      </Suspense>
    </div>
  );
}

/** The list/form/detail pages generated from a module schema. */
export default function ModulePage({ moduleId, title, header, extraFilter }: { moduleId: string; title?: string } & ModulePageExtras) {
  const meta = useModuleMeta(moduleId);
  if (meta.isLoading) {
    return (
      <div className="rt-page">
        <div className="rt-card">
          <Skeleton active paragraph={{ rows: 8 }} />
        </div>
      </div>
    );
  }
  if (meta.isError || !meta.data?.schema) {
    return (
      <div className="rt-card">
        <Suspense fallback={<Skeleton active />}>
          <ModuleLoadError error={meta.error} name={title ?? moduleId} onRetry={() => void meta.refetch()} />
        </Suspense>
      </div>
    );
  }
  return <ModuleList module={moduleId} meta={meta.data} header={header} extraFilter={extraFilter} />;
}
