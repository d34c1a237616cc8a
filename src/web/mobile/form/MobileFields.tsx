/**
 * A small form renderer for the phone: the simple field kinds of a module schema (text, textarea, number, date,
 * switch, dictionary select, file or image taken with the camera, roster checklist), each with the server's
 * message under it. The record's validation stays the server's (the same schema, `POST /api/m/{module}`): this
 * only collects values. Used by 记录会议 and by the approval steps' fields.
 */
import { useEffect, useState } from 'react';
import type { FieldSchema } from '../../../shared/module-schema/types';
import { IMAGE_TYPES } from '../../../shared/file-types';
import { get, postForm } from '../api';
import { fileRef, fileRefValue, showIfMatches } from '../../renderer/model';

export type MobileKind = 'text' | 'textarea' | 'number' | 'date' | 'switch' | 'dict' | 'image' | 'file' | 'roster';

/** The kind a field is shown as on a phone; null for kinds this renderer leaves to the full site (a person picker, a table). */
export function mobileKind(f: FieldSchema): MobileKind | null {
  if (f.type === 'array') return f['x-widget'] === 'roster' && f['x-ref'] ? 'roster' : null;
  if (f['x-ref']) return null;
  if (f['x-dict']) return 'dict';
  if (f.type === 'boolean') return 'switch';
  if (f.type === 'integer' || f.type === 'number') return 'number';
  if (f.type !== 'string') return null;
  if (f.format === 'image' || f['x-widget'] === 'image') return 'image';
  if (f.format === 'file' || f['x-widget'] === 'upload') return 'file';
  if (f.format === 'date') return 'date';
  if (f.format === 'textarea' || f.format === 'rich-text' || f['x-widget'] === 'textarea') return 'textarea';
  return 'text';
}

export interface MobileField {
  name: string;
  schema: FieldSchema;
  required?: boolean;
}

export type Option = { value: string | number; label: string };

/** The entries of these dictionaries (`GET /api/dictDetail/map`), loaded once per form. */
export function useDictOptions(codes: string[]): Record<string, Option[]> {
  const [options, setOptions] = useState<Record<string, Option[]>>({});
  const key = [...new Set(codes)].sort().join(',');
  useEffect(() => {
    if (!key) return;
    get<Record<string, { value: string; label: string; disabled: boolean }[]>>(`/api/dictDetail/map?dictName=${encodeURIComponent(key)}`).then(
      (map) => setOptions(Object.fromEntries(Object.entries(map).map(([code, entries]) => [code, entries.filter((e) => !e.disabled).map((e) => ({ value: e.value, label: e.label }))]))),
      () => undefined,
    );
  }, [key]);
  return options;
}

/** The fields shown now: those whose `x-show-if` holds for the current values. */
export function visibleFields(fields: MobileField[], values: Record<string, unknown>): MobileField[] {
  return fields.filter((f) => !f.schema['x-show-if'] || showIfMatches(f.schema['x-show-if'], values[f.schema['x-show-if'].field]));
}

const IMAGE_ACCEPT = `image/*,${Object.keys(IMAGE_TYPES).map((e) => `.${e}`).join(',')}`;

/** A photo or file: the camera on a phone (`capture`), uploaded at once through the file API; the value is its reference. */
function UploadField({ id, field, value, onChange, moduleName }: { id: string; field: MobileField; value: unknown; onChange: (v: unknown) => void; moduleName?: string }) {
  const image = mobileKind(field.schema) === 'image';
  const [preview, setPreview] = useState('');
  const [state, setState] = useState<{ busy: boolean; error: string }>({ busy: false, error: '' });
  const stored = fileRef(value);
  useEffect(() => () => URL.revokeObjectURL(preview), [preview]);
  const send = async (file: File | undefined) => {
    if (!file) return;
    setState({ busy: true, error: '' });
    const form = new FormData();
    if (moduleName) form.append('moduleName', moduleName);
    form.append('file', file, file.name);
    try {
      const saved = await postForm<{ key: string; name: string }>('/api/file/upload', form);
      onChange(fileRefValue({ id: saved.key, name: saved.name }));
      if (image) setPreview(URL.createObjectURL(file));
      setState({ busy: false, error: '' });
    } catch (e) {
      setState({ busy: false, error: (e as Error).message });
    }
  };
  return (
    <div className="m-upload">
      {image && preview && <img className="m-photo" src={preview} alt={field.schema.title} />}
      {stored && <div className="m-item-meta">已上传：{stored.name}</div>}
      <label className="m-btn m-upload-btn">
        {state.busy ? '上传中…' : stored ? (image ? '重新拍照' : '重新选择') : image ? '拍照 / 选择照片' : '选择文件'}
        <input id={id} type="file" className="m-file-input" aria-label={field.schema.title} disabled={state.busy} {...(image ? { accept: IMAGE_ACCEPT, capture: 'environment' } : {})} onChange={(e) => void send(e.target.files?.[0])} />
      </label>
      {stored && (
        <button type="button" className="m-btn" onClick={() => { onChange(undefined); setPreview(''); }}>
          删除
        </button>
      )}
      {state.error && <div className="m-field-error" role="alert">{state.error}</div>}
    </div>
  );
}

function Control({ id, field, value, onChange, options, moduleName }: { id: string; field: MobileField; value: unknown; onChange: (v: unknown) => void; options?: Option[]; moduleName?: string }) {
  const f = field.schema;
  switch (mobileKind(f)) {
    case 'textarea':
      return <textarea id={id} className="m-input m-textarea" rows={4} maxLength={f.maxLength} value={(value as string) ?? ''} onChange={(e) => onChange(e.target.value || undefined)} />;
    case 'number':
      return <input id={id} className="m-input" type="number" inputMode="numeric" value={value === undefined || value === null ? '' : String(value)} onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))} />;
    case 'date':
      return <input id={id} className="m-input" type="date" value={(value as string) ?? ''} onChange={(e) => onChange(e.target.value || undefined)} />;
    case 'switch':
      return <input id={id} className="m-switch" type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />;
    case 'dict':
      return (
        <select id={id} className="m-input" value={(value as string) ?? ''} onChange={(e) => onChange(e.target.value || undefined)}>
          <option value="">请选择</option>
          {(options ?? []).map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
        </select>
      );
    case 'image':
    case 'file':
      return <UploadField id={id} field={field} value={value} onChange={onChange} moduleName={moduleName} />;
    case 'roster': {
      const chosen = new Set((value as number[] | undefined) ?? []);
      const all = options ?? [];
      const set = (ids: number[]) => onChange(ids.length ? ids : undefined);
      return (
        <div className="m-roster" id={id}>
          <div className="m-roster-bar">
            <span>已选 {chosen.size} / {all.length}</span>
            <button type="button" className="m-btn" onClick={() => set(all.map((o) => Number(o.value)))}>全选</button>
            <button type="button" className="m-btn" onClick={() => set([])}>清空</button>
          </div>
          {all.map((o) => (
            <label key={o.value} className="m-check">
              <input type="checkbox" checked={chosen.has(Number(o.value))} onChange={(e) => set(e.target.checked ? [...chosen, Number(o.value)] : [...chosen].filter((x) => x !== Number(o.value)))} />
              {o.label}
            </label>
          ))}
        </div>
      );
    }
    default:
      return <input id={id} className="m-input" maxLength={f.maxLength} value={(value as string) ?? ''} onChange={(e) => onChange(e.target.value || undefined)} />;
  }
}

/** One labelled field with its message under it. */
export function FieldRow({ id, title, required, error, children }: { id: string; title: string; required?: boolean; error?: string; children: React.ReactNode }) {
  return (
    <div className={error ? 'm-field m-field-bad' : 'm-field'}>
      <label className="m-label" htmlFor={id}>
        {required && <span className="m-required">*</span>}
        {title}
      </label>
      {children}
      {error && <div className="m-field-error" role="alert">{error}</div>}
    </div>
  );
}

/**
 * The fields (those `x-show-if` shows for the values), each with its error. `options`: dictionary entries by
 * code and roster entries by field name.
 */
export function MobileFields({ fields, values, onChange, errors, dicts, rosters, moduleName, idPrefix = 'mf' }: {
  fields: MobileField[];
  values: Record<string, unknown>;
  onChange: (name: string, value: unknown) => void;
  errors: Record<string, string>;
  dicts: Record<string, Option[]>;
  rosters?: Record<string, Option[]>;
  moduleName?: string;
  idPrefix?: string;
}) {
  return (
    <>
      {visibleFields(fields, values).map((field) => {
        const id = `${idPrefix}-${field.name}`;
        const options = field.schema['x-dict'] ? dicts[field.schema['x-dict']] : rosters?.[field.name];
        return (
          <FieldRow key={field.name} id={id} title={field.schema.title ?? field.name} required={field.required} error={errors[field.name]}>
            <Control id={id} field={field} value={values[field.name]} onChange={(v) => onChange(field.name, v)} options={options} moduleName={moduleName} />
          </FieldRow>
        );
      })}
    </>
  );
}

/** The server's field messages by field (`errors[].field` may be a path: its first segment names the field). */
export function fieldErrors(list: { field: string; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of list) {
    const name = e.field.replace(/^\//, '').split(/[./[]/)[0];
    out[name] ??= e.message;
  }
  return out;
}
