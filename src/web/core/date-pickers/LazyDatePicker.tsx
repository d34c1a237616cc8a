import { CalendarOutlined } from '@ant-design/icons';
import { Input } from 'antd';
import type { DatePickerProps } from 'antd';
import type { RangePickerProps } from 'antd/es/date-picker';
import { lazy, Suspense, useState, type ComponentType, type CSSProperties } from 'react';

/**
 * antd's DatePicker and RangePicker, downloaded when the user reaches for them. A filter bar shows a
 * look-alike input until the pointer enters it, it gets focus or it holds a value; then the real
 * picker (about 30 KB gzip with dayjs) loads and takes its place, usually before the click lands.
 * So a list page's first load does not carry a calendar nobody opened.
 */
const RealDatePicker = lazy(() => import('./date-pickers').then((m) => ({ default: m.DatePicker as ComponentType<DatePickerProps> })));
const RealRangePicker = lazy(() => import('./date-pickers').then((m) => ({ default: m.RangePicker })));

function placeholderText(placeholder: unknown): string | undefined {
  if (Array.isArray(placeholder)) return placeholder.filter(Boolean).join(' → ');
  return typeof placeholder === 'string' ? placeholder : undefined;
}

function hasValue(value: unknown): boolean {
  return Array.isArray(value) ? value.some((v) => v != null) : value != null;
}

/** Stands in for a picker: same size and placeholder; reaching for it asks for the real one. */
function LookAlike({ placeholder, style, disabled, onWanted }: { placeholder?: unknown; style?: CSSProperties; disabled?: boolean; onWanted: (focus: boolean) => void }) {
  return (
    <Input
      readOnly
      className="lazy-picker"
      style={style}
      disabled={disabled}
      placeholder={placeholderText(placeholder)}
      suffix={<CalendarOutlined style={{ color: 'rgba(0, 0, 0, 0.25)' }} />}
      onPointerEnter={() => onWanted(false)}
      onTouchStart={() => onWanted(false)}
      onFocus={() => onWanted(true)}
    />
  );
}

function useWanted(value: unknown) {
  const [wanted, setWanted] = useState<{ focus: boolean } | null>(hasValue(value) ? { focus: false } : null);
  const want = (focus: boolean) => setWanted((w) => (w && (w.focus || !focus) ? w : { focus }));
  return { wanted: wanted ?? (hasValue(value) ? { focus: false } : null), want };
}

interface PickerBaseProps {
  value?: unknown;
  placeholder?: unknown;
  style?: CSSProperties;
  disabled?: unknown;
  autoFocus?: boolean;
}

/** A picker component that shows the look-alike until wanted, then the real one (`Real`, loaded lazily). */
function onDemand<P extends PickerBaseProps>(Real: ComponentType<P>) {
  return function OnDemandPicker(props: P) {
    const { wanted, want } = useWanted(props.value);
    const lookAlike = <LookAlike placeholder={props.placeholder} style={props.style} disabled={props.disabled === true} onWanted={want} />;
    if (!wanted) return lookAlike;
    return (
      <Suspense fallback={lookAlike}>
        <Real {...props} autoFocus={props.autoFocus || wanted.focus} />
      </Suspense>
    );
  };
}

export const LazyDatePicker = onDemand<DatePickerProps>(RealDatePicker);
export const LazyRangePicker = onDemand<RangePickerProps>(RealRangePicker as ComponentType<RangePickerProps>);
