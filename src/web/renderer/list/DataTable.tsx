/**
 * The list table of a module: @tanstack/react-table (v9) owns columns, sorting (on the server), row
 * selection, column visibility and pinning; this file draws it as an antd-looking table with
 * virtualised rows (@tanstack/react-virtual), so a page of 1,000 rows renders only what is on screen;
 * on pages of more than COLUMNS_ALL_ROWS rows the unpinned columns are virtualised across too (a row
 * scrolling in draws a dozen cells, not thirty: scrolling 1,000 rows × 30 columns went from 11 to 34
 * frames a second on the bench machine). Cells are plain text: no component, no tooltip per cell (a native title on truncated columns).
 *
 * The table elements are laid out as boxes, not by the table algorithm (renderer.css): the body is as
 * tall as all its rows, each drawn row is placed at its own offset with fixed cell widths, so a row
 * scrolling in costs the layout of that row only. (With table layout, every row scrolling in laid out
 * and re-shaped the text of every drawn cell: ~100 ms per frame for 30 columns on this machine.)
 */
import { CaretDownOutlined, CaretUpOutlined } from '@ant-design/icons';
import {
  createColumnHelper,
  useTable,
  type ColumnDef,
  type ColumnVisibilityState,
  type Header,
  type RowSelectionState,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Checkbox, ConfigProvider, Empty, Spin } from 'antd';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ModuleRecord } from '../api';
import { displayText, type ColumnSpec } from '../model';
import {
  ACTIONS_COLUMN,
  assignSlots,
  BodyRow,
  cellClass,
  cellStyle,
  SELECT_COLUMN,
  tableFeaturesOfList,
  tableGeometry,
  type ColumnWindow,
  type Features,
} from './table-parts';

const helper = createColumnHelper<Features, ModuleRecord>();
const SELECT_WIDTH = 48;

/** Pages of up to this many rows draw every column; bigger pages draw the columns on screen. */
const COLUMNS_ALL_ROWS = 100;

/** Row heights by antd's component size (rows are one line: cells truncate). */
const ROW_HEIGHT = { small: 40, middle: 48, large: 54 } as const;

/**
 * Column definitions from the list columns of the schema, plus the selection column and the row
 * actions. Build them once per schema (useMemo): they are model inputs.
 */
export function buildColumns(
  specs: ColumnSpec[],
  actions: { width: number; render: (record: ModuleRecord) => ReactNode } | undefined,
): ColumnDef<Features, ModuleRecord, unknown>[] {
  const columns: ColumnDef<Features, ModuleRecord, unknown>[] = [
    helper.display({
      id: SELECT_COLUMN,
      size: SELECT_WIDTH,
      enableSorting: false,
      enableHiding: false,
      header: '',
    }) as ColumnDef<Features, ModuleRecord, unknown>,
  ];
  for (const spec of specs) {
    columns.push(
      helper.accessor((r) => displayText(r, spec.field, spec.schema), {
        id: spec.field,
        header: spec.title,
        size: spec.width,
        enableSorting: spec.sortable,
      }) as ColumnDef<Features, ModuleRecord, unknown>,
    );
  }
  if (actions) {
    columns.push(
      helper.display({
        id: ACTIONS_COLUMN,
        header: '操作',
        size: actions.width,
        enableSorting: false,
        enableHiding: false,
        cell: (ctx) => actions.render(ctx.row.original),
      }) as ColumnDef<Features, ModuleRecord, unknown>,
    );
  }
  return columns;
}

export interface DataTableProps {
  columns: ColumnDef<Features, ModuleRecord, unknown>[];
  specs: ColumnSpec[];
  rows: ModuleRecord[];
  sorting: SortingState;
  onSortingChange: (updater: Updater<SortingState>) => void;
  rowSelection: RowSelectionState;
  onRowSelectionChange: (updater: Updater<RowSelectionState>) => void;
  columnVisibility: ColumnVisibilityState;
  selectable: boolean;
  loading: boolean;
  /** Shown instead of the empty notice (a failed load). */
  error?: ReactNode;
}

function SortIcon({ dir }: { dir: false | 'asc' | 'desc' }) {
  return (
    <span className="rt-sorter" aria-hidden>
      <CaretUpOutlined className={dir === 'asc' ? 'on' : undefined} />
      <CaretDownOutlined className={dir === 'desc' ? 'on' : undefined} />
    </span>
  );
}

export function DataTable(props: DataTableProps) {
  const { columns, specs, rows, sorting, onSortingChange, rowSelection, onRowSelectionChange, columnVisibility, selectable, loading, error } = props;
  const size = ConfigProvider.useConfig().componentSize ?? 'middle';
  const rowHeight = ROW_HEIGHT[size as keyof typeof ROW_HEIGHT] ?? ROW_HEIGHT.middle;
  const scrollRef = useRef<HTMLDivElement>(null);
  const [available, setAvailable] = useState(0);
  const [maxHeight, setMaxHeight] = useState(520);

  const columnPinning = useMemo(
    () => ({
      start: [...(selectable ? [SELECT_COLUMN] : []), ...specs.filter((s) => s.fixed === 'left').map((s) => s.field)],
      end: [...specs.filter((s) => s.fixed === 'right').map((s) => s.field), ACTIONS_COLUMN],
    }),
    [specs, selectable],
  );
  const visibility = useMemo(() => ({ ...columnVisibility, [SELECT_COLUMN]: selectable }), [columnVisibility, selectable]);

  const table = useTable({
    features: tableFeaturesOfList,
    columns,
    data: rows,
    getRowId: (r) => String(r.id),
    state: {
      sorting,
      rowSelection,
      columnVisibility: visibility,
      columnPinning,
    },
    onSortingChange,
    onRowSelectionChange,
    manualSorting: true,
    enableMultiSort: false,
    sortDescFirst: false,
    enableRowRangeSelection: true,
  });

  const visible = table.getVisibleLeafColumns();
  const geometry = useMemo(
    () => tableGeometry(visible, available),
    // `visible` is derived from the state listed
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [columns, visibility, columnPinning, available],
  );
  const ellipsis = useMemo(() => new Set(specs.filter((s) => s.ellipsis).map((s) => s.field)), [specs]);
  const tones = useMemo(() => new Map(specs.flatMap((s) => (s.tone ? [[s.field, s.tone] as const] : []))), [specs]);
  // A field's help text (schema `description`) is its header's tooltip.
  const helps = useMemo(() => new Map(specs.flatMap((s) => (s.schema.description ? [[s.field, s.schema.description] as const] : []))), [specs]);
  const totalWidth = [...geometry.widths.values()].reduce((s, w) => s + w, 0);

  // The room the table has: its width (spare width goes to the columns), and the height down to the pagination.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const measure = () => {
      setAvailable(el.clientWidth);
      const top = el.getBoundingClientRect().top + window.scrollY;
      setMaxHeight(Math.max(320, window.innerHeight - top - 72));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el.parentElement ?? el);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, []);

  const modelRows = table.getRowModel().rows;
  // Stable callbacks: the virtualizer recomputes the offsets of all rows when they change.
  const estimateSize = useCallback(() => rowHeight, [rowHeight]);
  const getItemKey = useCallback((i: number) => modelRows[i].id, [modelRows]);
  const virtualizer = useVirtualizer({
    count: modelRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    getItemKey,
    overscan: 4,
    // Rows show in the first frame, before the box is measured.
    initialRect: { width: 0, height: maxHeight },
  });
  // A new page starts at its top.
  useEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [rows]);

  // The unpinned columns, virtualised across on big pages: pinned ones are always drawn, the header draws
  // them all. Pages up to COLUMNS_ALL_ROWS rows, and a box not measured yet, draw every column (a row's
  // text stays whole for the browser's find and for copying).
  const virtualColumns = available > 0 && rows.length > COLUMNS_ALL_ROWS;
  const middleIds = useMemo(() => visible.filter((c) => !geometry.offsets.has(c.id)).map((c) => c.id), [geometry]); // eslint-disable-line react-hooks/exhaustive-deps
  const leftWidth = useMemo(() => [...geometry.offsets].filter(([, o]) => o.side === 'left').reduce((s, [id]) => s + geometry.widths.get(id)!, 0), [geometry]);
  const middleWidth = middleIds.reduce((s, id) => s + geometry.widths.get(id)!, 0);
  const columnWidth = useCallback((i: number) => geometry.widths.get(middleIds[i]) ?? 0, [geometry, middleIds]);
  const columnKey = useCallback((i: number) => middleIds[i], [middleIds]);
  const columnVirtualizer = useVirtualizer({
    horizontal: true,
    count: middleIds.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: columnWidth,
    getItemKey: columnKey,
    overscan: 2,
    // The unpinned columns start after the pinned ones on the left.
    scrollMargin: leftWidth,
    enabled: virtualColumns,
    initialRect: { width: available || window.innerWidth, height: maxHeight },
  });
  const columnItems = columnVirtualizer.getVirtualItems();
  const window_: ColumnWindow =
    virtualColumns && columnItems.length
      ? {
          from: columnItems[0].index,
          to: columnItems.at(-1)!.index,
          before: columnItems[0].start - leftWidth,
          after: middleWidth - (columnItems.at(-1)!.end - leftWidth),
        }
      : { from: 0, to: middleIds.length - 1, before: 0, after: 0 };

  const items = virtualizer.getVirtualItems();
  // Rows drawn in slot order: a re-used row element stays where it is in the DOM (moving it would redo it).
  // Screen readers read the rows' places from aria-rowindex, as in other virtualised grids.
  const slotRef = useRef(new Map<number, number>());
  const focusedRow = useRef<number | undefined>(undefined);
  const slots = (slotRef.current = assignSlots(
    slotRef.current,
    items.map((item) => item.index),
    focusedRow.current,
  ));
  const drawn = [...items].sort((a, b) => slots.get(a.index)! - slots.get(b.index)!);
  const colSpan = visible.length;
  const allSelected = table.getIsAllPageRowsSelected();
  const someSelected = table.getIsSomePageRowsSelected();

  const headerCell = (header: Header<Features, ModuleRecord, unknown>) => {
    const id = header.column.id;
    if (id === SELECT_COLUMN) {
      return (
        <th key={header.id} className={cellClass(id, geometry, 'rt-th rt-select')} style={cellStyle(id, geometry)} aria-colindex={geometry.index.get(id)}>
          <Checkbox
            checked={allSelected}
            indeterminate={!allSelected && someSelected}
            disabled={!rows.length}
            onChange={table.getToggleAllPageRowsSelectedHandler()}
            aria-label="全选本页"
          />
        </th>
      );
    }
    const canSort = header.column.getCanSort();
    const dir = header.column.getIsSorted();
    const next = header.column.getNextSortingOrder();
    return (
      <th
        key={header.id}
        className={cellClass(id, geometry, `rt-th${canSort ? ' rt-sortable' : ''}${dir ? ' rt-sorted' : ''}`)}
        style={cellStyle(id, geometry)}
        aria-colindex={geometry.index.get(id)}
        onClick={canSort ? header.column.getToggleSortingHandler() : undefined}
        title={canSort ? (next === 'asc' ? '点击升序' : next === 'desc' ? '点击降序' : '取消排序') : undefined}
        aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : undefined}
      >
        <span className="rt-th-inner">
          <span className={helps.has(id) ? 'rt-th-title rt-th-help' : 'rt-th-title'} title={helps.get(id)}>
            {header.column.columnDef.header as string}
          </span>
          {canSort && <SortIcon dir={dir} />}
        </span>
      </th>
    );
  };

  // The header is drawn again only when what it shows changes, not on every scrolled frame: its antd
  // checkbox rewrites its input's attributes on each render, which made the browser lay out every row.
  const noRows = !rows.length;
  const head = useMemo(
    () => (
      <thead>
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id} style={{ height: rowHeight + 2 }} aria-rowindex={1}>
            {group.headers.map(headerCell)}
          </tr>
        ))}
      </thead>
    ),
    // headerCell reads the table's state listed here
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [geometry, sorting, allSelected, someSelected, noRows, rowHeight, helps],
  );

  return (
    <div className="rt-wrap">
      <div ref={scrollRef} className="rt-scroll" style={{ maxHeight }}>
        <table className="rt-table" style={{ width: totalWidth }} aria-rowcount={rows.length + 1} aria-colcount={colSpan}>
          {head}
          {/* As tall as all the rows: the scroll height is the whole page's. */}
          <tbody
            style={rows.length ? { height: virtualizer.getTotalSize() } : undefined}
            onFocus={(e) => {
              const place = (e.target as HTMLElement).closest('tr.rt-row')?.getAttribute('aria-rowindex');
              focusedRow.current = place ? Number(place) - 2 : undefined;
            }}
            onBlur={() => (focusedRow.current = undefined)}
          >
            {drawn.map((item) => {
              const row = modelRows[item.index];
              return (
                <BodyRow
                  key={slots.get(item.index)}
                  row={row}
                  selected={!!rowSelection[row.id]}
                  geometry={geometry}
                  height={rowHeight}
                  top={item.start}
                  ellipsis={ellipsis}
                  tones={tones}
                  {...window_}
                />
              );
            })}
            {!rows.length && (
              <tr className="rt-empty-row">
                <td colSpan={colSpan}>
                  <div className="rt-empty" style={{ width: available || undefined }}>
                    {error ?? (loading ? null : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />)}
                  </div>
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {loading && (
        <div className="rt-loading">
          <Spin />
        </div>
      )}
    </div>
  );
}
