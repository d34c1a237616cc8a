/**
 * The pieces of the list table (DataTable.tsx) below the component: the table model's features, the
 * geometry of the columns (widths, sticky offsets of pinned ones, places) and one body row, which draws
 * its pinned cells, the unpinned ones in the column window, and gap cells for the columns left out.
 */
import {
  columnPinningFeature,
  columnSizingFeature,
  columnVisibilityFeature,
  rowSelectionFeature,
  rowSortingFeature,
  tableFeatures,
  type Cell,
  type Column,
  type Row,
} from '@tanstack/react-table';
import { memo, type CSSProperties, type ReactNode } from 'react';
import type { ModuleRecord } from '../api';

export const tableFeaturesOfList = tableFeatures({
  rowSortingFeature,
  rowSelectionFeature,
  columnVisibilityFeature,
  columnSizingFeature,
  columnPinningFeature,
});
export type Features = typeof tableFeaturesOfList;
export type ListRow = Row<Features, ModuleRecord>;
export type ListCell = Cell<Features, ModuleRecord, unknown>;

export const SELECT_COLUMN = '__select';
export const ACTIONS_COLUMN = '__actions';
/** The widths cells are drawn with: the model's sizes, with spare room given to the unpinned data columns. */
function effectiveWidths(columns: { id: string; size: number; pinned: boolean }[], available: number): Map<string, number> {
  const total = columns.reduce((s, c) => s + c.size, 0);
  const stretch = columns.filter((c) => !c.pinned && !c.id.startsWith('__'));
  const spare = Math.max(0, available - total);
  const stretchTotal = stretch.reduce((s, c) => s + c.size, 0) || 1;
  return new Map(columns.map((c) => [c.id, c.size + (stretch.includes(c) ? Math.floor((spare * c.size) / stretchTotal) : 0)]));
}

export interface Geometry {
  widths: Map<string, number>;
  /** Sticky offsets of pinned columns (start: left, end: right). */
  offsets: Map<string, { side: 'left' | 'right'; at: number; edge: boolean }>;
  /** Each column's cell style (width, and the sticky offset when pinned), shared by all its cells. */
  styles: Map<string, CSSProperties>;
  /** Each column's place as drawn (pinned left, the others, pinned right), from 1: aria-colindex, as columns are virtualised. */
  index: Map<string, number>;
}

/** Widths, sticky offsets, cell styles and places of the visible columns (pinned left, the others, pinned right). */
export function tableGeometry(visible: Column<Features, ModuleRecord, unknown>[], available: number): Geometry {
  const cols = visible.map((c) => ({
    id: c.id,
    size: c.getSize(),
    pinned: !!c.getIsPinned(),
  }));
  const widths = effectiveWidths(cols, available);
  const offsets: Geometry['offsets'] = new Map();
  const start = visible.filter((c) => c.getIsPinned() === 'start');
  const end = visible.filter((c) => c.getIsPinned() === 'end').reverse();
  let at = 0;
  start.forEach((c, i) => {
    offsets.set(c.id, { side: 'left', at, edge: i === start.length - 1 });
    at += widths.get(c.id)!;
  });
  at = 0;
  end.forEach((c, i) => {
    offsets.set(c.id, { side: 'right', at, edge: i === end.length - 1 });
    at += widths.get(c.id)!;
  });
  const styles = new Map<string, CSSProperties>(
    cols.map((c) => {
      const o = offsets.get(c.id);
      return [
        c.id,
        {
          width: widths.get(c.id),
          ...(o && { position: 'sticky', [o.side]: o.at }),
        },
      ];
    }),
  );
  const order = [...start, ...visible.filter((c) => !c.getIsPinned()), ...[...end].reverse()];
  const index = new Map(order.map((c, i) => [c.id, i + 1]));
  return { widths, offsets, styles, index };
}

/** Width and sticky offset: stacking lives in renderer.css (pinned body cells 2, pinned header cells 2 in the sticky header). */
export function cellStyle(id: string, g: Geometry): CSSProperties | undefined {
  return g.styles.get(id);
}

export function cellClass(id: string, g: Geometry, extra = ''): string {
  const o = g.offsets.get(id);
  return `${extra}${o ? ` rt-pinned rt-pinned-${o.side}${o.edge ? ' rt-pinned-edge' : ''}` : ''}`;
}

/**
 * The unpinned columns drawn (virtualised like the rows: a row of 30 columns draws the dozen on screen),
 * with the widths of the columns left out before and after them.
 */
export interface ColumnWindow {
  from: number;
  to: number;
  before: number;
  after: number;
}

/**
 * The slot (the row element) each drawn row uses: a row still drawn keeps its slot, a row scrolling in takes
 * a slot a row scrolling out left. Rows keyed by slot re-use their elements (new texts in the same cells)
 * instead of mounting new ones: a fast scroll brings a dozen rows a frame, and a new row costs the browser
 * its style, layout and paint from nothing. `previous` maps row index to slot for the last rows drawn.
 * The row holding the focus (`focused`) keeps its slot while it is out of view: its element is dropped, not
 * handed to another record under the focus (a key press would act on that other record).
 */
export function assignSlots(previous: ReadonlyMap<number, number>, indices: number[], focused?: number): Map<number, number> {
  const slots = new Map<number, number>();
  const taken = new Set<number>();
  const kept = focused === undefined || indices.includes(focused) ? indices : [...indices, focused];
  for (const i of kept) {
    const slot = previous.get(i);
    if (slot !== undefined) {
      slots.set(i, slot);
      taken.add(slot);
    }
  }
  let free = 0;
  for (const i of indices) {
    if (slots.has(i)) continue;
    while (taken.has(free)) free++;
    slots.set(i, free);
    taken.add(free);
  }
  return slots;
}

/** A cell standing in for the columns not drawn, so the drawn ones keep their place. */
const gap = (key: string, width: number) => (width > 0 ? <td key={key} className="rt-cell rt-gap" style={{ width }} aria-hidden /> : null);

export const BodyRow = memo(function BodyRow({
  row,
  selected,
  geometry,
  height,
  top,
  ellipsis,
  tones,
  from,
  to,
  before,
  after,
}: {
  row: ListRow;
  selected: boolean;
  geometry: Geometry;
  height: number;
  /** Offset of the row in the body (virtualised: rows are placed, not stacked). */
  top: number;
  ellipsis: Set<string>;
  /** Columns shown as a coloured tag (a workflow's state), by column id. */
  tones: Map<string, (value: unknown) => string>;
} & ColumnWindow) {
  const cells = row.getVisibleCells();
  const left = cells.filter((c) => geometry.offsets.get(c.column.id)?.side === 'left');
  const right = cells.filter((c) => geometry.offsets.get(c.column.id)?.side === 'right');
  const middle = cells.filter((c) => !geometry.offsets.has(c.column.id)).slice(from, to + 1);
  return (
    <tr
      className={selected ? 'rt-row rt-row-selected' : 'rt-row'}
      style={{
        height,
        lineHeight: `${height - 1}px`,
        transform: `translateY(${top}px)`,
      }}
      data-row-key={row.id}
      aria-rowindex={row.index + 2}
    >
      {left.map(renderCell)}
      {gap('before', before)}
      {middle.map(renderCell)}
      {gap('after', after)}
      {right.map(renderCell)}
    </tr>
  );

  function renderCell(cell: ListCell) {
    const id = cell.column.id;
    /** A cell's class, width, sticky offset and column place. */
    const placed = (kind: string) => ({ className: cellClass(id, geometry, kind), style: cellStyle(id, geometry), 'aria-colindex': geometry.index.get(id) });
    if (id === SELECT_COLUMN) {
      return (
        <td key={id} {...placed('rt-cell rt-select')}>
          {/* A native checkbox: scrolled rows re-render it with another record, so it stays light. */}
          <input type="checkbox" className="rt-checkbox" checked={selected} onChange={row.getToggleSelectedHandler()} aria-label="选择此行" />
        </td>
      );
    }
    if (id === ACTIONS_COLUMN) {
      return (
        <td key={id} {...placed('rt-cell rt-actions')}>
          {cell.column.columnDef.cell ? (cell.column.columnDef.cell as (ctx: ReturnType<ListCell['getContext']>) => ReactNode)(cell.getContext()) : null}
        </td>
      );
    }
    const text = cell.getValue() as string;
    const tone = tones.get(id);
    return (
      <td key={id} {...placed('rt-cell')} title={ellipsis.has(id) && text ? text : undefined}>
        {tone && text ? <span className={`rt-state rt-state-${tone(row.original[id])}`}>{text}</span> : text}
      </td>
    );
  }
});
