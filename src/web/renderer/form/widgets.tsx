/**
 * The widgets of module forms, on antd. Every field of a module schema gets one of these by name
 * (see ui-schema.ts), so rjsf's own widget choice never applies.
 */
import { DeleteOutlined, PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import type { WidgetProps } from '@rjsf/utils';
import { App, Button, Checkbox, Input, InputNumber, Progress, Radio, Select, Space, Switch, Upload } from 'antd';
import dayjs from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { computeField } from '../../../shared/module-schema/computed';
import type { FieldSchema } from '../../../shared/module-schema/types';
import { IMAGE_TYPES } from '../../../shared/file-types';
// The pickers of core/date-pickers carry dayjs's Chinese week and month names (antd's alone gave Nov, Su Mo).
import { DatePicker } from '../../core/date-pickers/date-pickers';
import { useDict } from '../../core/dicts';
import { download } from '../../core/request/download';
import { request } from '../../core/request/request';
import { ACCEPT_ALL, uploadFile, uploadProblem, type UploadedFile } from '../../core/upload/upload';
import { moduleApi } from '../api';
import { displayText, fileRef, fileRefValue } from '../model';
import { RefPicker, RefSelect } from '../pickers';
import { useFieldEligibility } from './eligibility';
import { contextOf, useFieldHandlers } from './context';
import { RowsWidget } from './RowsWidget';
import { RosterWidget } from './RosterWidget';
import { useFieldValue, useFormStore } from './store';

const fieldOf = (props: WidgetProps) => props.schema as unknown as FieldSchema;
const FULL = { width: '100%' };

/*
 * Values live in the form store (store.ts). Text and number inputs are uncontrolled, starting from the
 * store's value: antd mirrors a controlled value into its own state in a layout effect, which costs a
 * second commit per keystroke. The form is remounted whenever its values are replaced. The other widgets
 * show the store's value of their field (useFieldValue) and re-render when it changes.
 */
/**
 * The handlers of an uncontrolled input, and a key that changes when its field's value is set from outside the
 * input (an x-fill answer): the input then starts again from the store's value. Typing changes no key.
 */
function useUncontrolled(props: WidgetProps) {
  const handlers = useFieldHandlers(props);
  const { store } = handlers.ctx;
  const [key, setKey] = useState(0);
  const typing = useRef(false);
  useEffect(() => store.subscribeField(props.name, () => {
    if (!typing.current) setKey((k) => k + 1);
  }), [store, props.name]);
  const change = (value: unknown) => {
    typing.current = true;
    try {
      handlers.change(value);
    } finally {
      typing.current = false;
    }
  };
  return { ...handlers, change, key };
}

function TextWidget(props: WidgetProps) {
  const { change, blur, ctx, key } = useUncontrolled(props);
  return (
    <Input
      key={key}
      id={props.id}
      defaultValue={(ctx.store.values[props.name] as string | undefined) ?? ''}
      placeholder={props.placeholder}
      disabled={props.disabled}
      readOnly={props.readonly}
      autoComplete="off"
      onChange={(e) => change(e.target.value)}
      onBlur={blur}
    />
  );
}

function TextareaWidget(props: WidgetProps) {
  const { change, blur, ctx, key } = useUncontrolled(props);
  const max = fieldOf(props).maxLength;
  return (
    <Input.TextArea
      key={key}
      id={props.id}
      defaultValue={(ctx.store.values[props.name] as string | undefined) ?? ''}
      placeholder={props.placeholder}
      disabled={props.disabled}
      readOnly={props.readonly}
      autoSize={{ minRows: 3, maxRows: 8 }}
      showCount={!!max}
      maxLength={max}
      onChange={(e) => change(e.target.value)}
      onBlur={blur}
    />
  );
}

function NumberWidget(props: WidgetProps) {
  const { change, blur, ctx, key } = useUncontrolled(props);
  const f = fieldOf(props);
  return (
    <InputNumber
      key={key}
      id={props.id}
      style={FULL}
      defaultValue={(ctx.store.values[props.name] as number | undefined)}
      min={f.minimum}
      max={f.maximum}
      precision={f.type === 'integer' ? 0 : undefined}
      placeholder={props.placeholder}
      disabled={props.disabled}
      readOnly={props.readonly}
      changeOnWheel={false}
      onChange={(v) => change(v ?? undefined)}
      onBlur={blur}
    />
  );
}

function SwitchWidget(props: WidgetProps) {
  const { change, ctx } = useFieldHandlers(props, true);
  const value = useFieldValue(ctx.store, props.name);
  return (
    <Switch
      id={props.id}
      checked={!!value}
      disabled={props.disabled || props.readonly}
      checkedChildren="是"
      unCheckedChildren="否"
      onChange={(v) => change(v)}
    />
  );
}

/** Options of a field with a JSON-schema enum: its `x-enum-titles`, else the values as their own labels. */
export const enumOptions = (f: FieldSchema) => (f.enum ?? f.items?.enum ?? []).map((v, i) => ({ value: v as string | number, label: f['x-enum-titles']?.[i] ?? String(v) }));

interface Choice {
  value: string | number;
  label: string;
  disabled?: boolean;
}

/** One choice among options, drawn as radio buttons, checkboxes or a select by `ui:options.mode`. */
function ChoiceInput({ props, options, loading }: { props: WidgetProps; options: Choice[]; loading?: boolean }) {
  const { change, blur, ctx } = useFieldHandlers(props, true);
  const value = useFieldValue(ctx.store, props.name) as string | number | (string | number)[] | undefined;
  const multiple = fieldOf(props).type === 'array';
  const mode = props.options.mode as 'radio' | 'checkbox' | 'select' | undefined;
  const disabled = props.disabled || props.readonly;
  if (mode === 'radio' && !multiple) {
    return <Radio.Group id={props.id} value={value} options={options} disabled={disabled} onChange={(e) => change(e.target.value)} />;
  }
  if (mode === 'checkbox' && multiple) {
    return <Checkbox.Group value={(value as (string | number)[] | undefined) ?? []} options={options} disabled={disabled} onChange={(v) => change(v)} />;
  }
  return (
    <Select
      id={props.id}
      style={FULL}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      mode={multiple ? 'multiple' : undefined}
      loading={loading}
      value={value ?? (multiple ? [] : undefined)}
      options={options}
      placeholder={props.placeholder}
      disabled={disabled}
      onChange={(v) => change(v)}
      onBlur={blur}
    />
  );
}

function EnumWidget(props: WidgetProps) {
  return <ChoiceInput props={props} options={enumOptions(fieldOf(props))} />;
}

/** A module id (`x-choices: "modules"`): the modules the caller may list, by title; a stored value outside them stays shown. */
function ModuleChoiceWidget(props: WidgetProps) {
  const { ctx } = useFieldHandlers(props, true);
  const value = useFieldValue(ctx.store, props.name) as string | undefined;
  const modules = useQuery({ queryKey: ['module-choices'], queryFn: moduleApi.modules, staleTime: 300_000 });
  const options = (modules.data ?? []).map((m) => ({ value: m.id, label: `${m.title}（${m.id}）` }));
  if (value && modules.data && !options.some((o) => o.value === value)) options.push({ value, label: value });
  return <ChoiceInput props={props} options={options} loading={modules.isLoading} />;
}

/** A dictionary field: options from `GET /api/dictDetail?dictName=<x-dict>`; disabled entries stay readable. */
function DictWidget(props: WidgetProps) {
  const dict = useDict(fieldOf(props)['x-dict']);
  const options = dict.entries.map((e) => ({ value: e.value, label: e.label, disabled: e.disabled }));
  return <ChoiceInput props={props} options={options} loading={dict.loading} />;
}

function RefWidget(props: WidgetProps) {
  const { change, blur, ctx } = useFieldHandlers(props, true);
  const value = useFieldValue(ctx.store, props.name);
  const f = fieldOf(props);
  const eligibility = useFieldEligibility(ctx, props.name);
  const picker = {
    id: props.id,
    eligibility,
    module: f['x-ref']!,
    multiple: f.type === 'array',
    value: value as never,
    knownNames: ctx.refNames[props.name],
    placeholder: props.placeholder,
    disabled: props.disabled || props.readonly,
    onChange: change,
    onBlur: blur,
  };
  // x-widget "select": a search over every record, organisations included (the tree holds only the caller's own).
  if (f['x-widget'] === 'select') return <RefSelect {...picker} />;
  return <RefPicker {...picker} tree={f['x-widget'] === 'org-tree'} />;
}

const DATE = 'YYYY-MM-DD';

function DateWidget(props: WidgetProps) {
  const { change, ctx } = useFieldHandlers(props, true);
  const stored = useFieldValue(ctx.store, props.name);
  const time = props.options.time === true;
  const value = stored ? dayjs(stored as string, time ? undefined : DATE) : null;
  return (
    <DatePicker
      id={props.id}
      style={FULL}
      showTime={time}
      format={time ? 'YYYY-MM-DD HH:mm:ss' : DATE}
      value={value?.isValid() ? value : null}
      placeholder={props.placeholder}
      disabled={props.disabled || props.readonly}
      // Dates travel as 'YYYY-MM-DD'; instants as ISO text with the local offset.
      onChange={(d) => change(d ? (time ? d.format() : d.format(DATE)) : undefined)}
    />
  );
}

/** A read-only field: computed ones recomputed from the values as they are typed, others shown as stored. */
function ReadOnlyWidget(props: WidgetProps) {
  const ctx = contextOf(props);
  const f = fieldOf(props);
  const spec = f['x-computed'];
  const live = useFormStore(ctx.store, (s) => (spec ? computeField(spec, s.values) : undefined));
  const stored = useFieldValue(ctx.store, props.name);
  const value = spec ? live : stored;
  const text = spec
    ? value === null || value === undefined
      ? ''
      : String(value)
    : displayText({ [props.name]: value, ...labelsOf(ctx.refNames, props.name) }, props.name, f);
  return <Input id={props.id} value={text} readOnly variant="filled" placeholder={spec ? '自动计算' : '—'} tabIndex={-1} />;
}

const labelsOf = (names: Record<string, Record<number, string>>, field: string) => {
  const known = names[field];
  return known ? { [`${field}Name`]: Object.values(known).join('、') } : {};
};

/** An image stored on the server, fetched with the session's token (an <img src> would carry none). */
export function AuthImage({ url, alt, size = 96 }: { url: string; alt: string; size?: number }) {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    let objectUrl: string | undefined;
    let live = true;
    request
      .get<Blob>(url, { responseType: 'blob', skipErrorNotify: true })
      .then((r) => {
        if (!live) return;
        objectUrl = URL.createObjectURL(r.data);
        setSrc(objectUrl);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  return (
    <span className="rf-image" style={{ width: size, height: size }}>
      {src ? <img src={src} alt={alt} /> : null}
    </span>
  );
}

/** A stored file as a link that downloads it. */
export function FileLink({ value }: { value: unknown }) {
  const file = fileRef(value);
  if (!file) return null;
  return (
    <a className="rf-file-link" onClick={() => void download('/api/file/download', { id: file.id }, file.name)}>
      <PaperClipOutlined /> {file.name}
    </a>
  );
}

const IMAGE_ACCEPT = Object.keys(IMAGE_TYPES)
  .map((ext) => `.${ext}`)
  .join(',');

/**
 * A file or image field: uploads through `POST /api/file/upload` showing the percentage sent, and stores
 * the file's reference. The file is filed under the module, so whoever may list the module may read it.
 */
function UploadWidget(props: WidgetProps) {
  const { change, ctx } = useFieldHandlers(props, true);
  const { message } = App.useApp();
  const [percent, setPercent] = useState<number>();
  const image = fieldOf(props).format === 'image' || fieldOf(props)['x-widget'] === 'image';
  const value = useFieldValue(ctx.store, props.name);
  const file = fileRef(value);
  const disabled = props.disabled || props.readonly;
  return (
    <div className="rf-upload" id={props.id}>
      {file && (
        <Space size={12} align="center">
          {image ? <AuthImage url={`/api/file/view?id=${file.id}`} alt={file.name} /> : <FileLink value={value} />}
          {!disabled && (
            <Button size="small" type="text" danger icon={<DeleteOutlined />} onClick={() => change(undefined)}>
              删除
            </Button>
          )}
        </Space>
      )}
      {!disabled && percent === undefined && (
        <Upload
          accept={image ? IMAGE_ACCEPT : ACCEPT_ALL}
          showUploadList={false}
          beforeUpload={(f) => {
            const problem = uploadProblem(f, undefined, image ? IMAGE_TYPES : undefined);
            if (problem) message.error(problem);
            return problem ? Upload.LIST_IGNORE : true;
          }}
          customRequest={({ file: raw }) => {
            const f = raw as File;
            setPercent(0);
            uploadFile<UploadedFile>(f, f.name, { onProgress: setPercent, moduleName: ctx.schema['x-id'] })
              .then((stored) => change(fileRefValue({ id: stored.key, name: stored.name })))
              .catch(() => undefined)
              .finally(() => setPercent(undefined));
          }}
        >
          <Button icon={<UploadOutlined />}>{file ? '重新上传' : image ? '上传图片' : '上传文件'}</Button>
        </Upload>
      )}
      {percent !== undefined && <Progress className="rf-upload-progress" percent={percent} size="small" status="active" />}
    </div>
  );
}

/** The widgets by the names ui-schema.ts gives fields. */
export const recordWidgets = {
  text: TextWidget,
  textarea: TextareaWidget,
  number: NumberWidget,
  switch: SwitchWidget,
  enum: EnumWidget,
  modules: ModuleChoiceWidget,
  dict: DictWidget,
  ref: RefWidget,
  date: DateWidget,
  upload: UploadWidget,
  readonly: ReadOnlyWidget,
  rows: RowsWidget,
  roster: RosterWidget,
};

export type RecordWidgetName = keyof typeof recordWidgets;
