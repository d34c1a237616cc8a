/** A searchable select of a module's records (its options endpoint), for the administration pages. */
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { pschoolAdminApi } from './api';

export function RecordPicker({ module, value, onChange, placeholder, style }: { module: string; value?: number; onChange: (id: number | undefined) => void; placeholder: string; style?: React.CSSProperties }) {
  const [q, setQ] = useState('');
  const options = useQuery({ queryKey: ['pschool-options', module, q], queryFn: () => pschoolAdminApi.options(module, q || undefined) });
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setQ }}
      allowClear
      style={{ minWidth: 260, ...style }}
      placeholder={placeholder}
      value={value}
      onChange={(v) => onChange(v ?? undefined)}
      loading={options.isLoading}
      options={(options.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
    />
  );
}
