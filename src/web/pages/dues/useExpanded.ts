import { useEffect, useState } from 'react';

/**
 * Expanded rows of a tree table: the top rows once the data arrives (a table's defaultExpandedRowKeys
 * only counts at its first render, before the data), then whatever the user opens or closes.
 */
export function useExpanded(nodes: { orgId: number }[] | undefined) {
  const [keys, setKeys] = useState<number[]>([]);
  const [seeded, setSeeded] = useState(false);
  useEffect(() => {
    if (nodes && !seeded) {
      setKeys(nodes.map((n) => n.orgId));
      setSeeded(true);
    }
  }, [nodes, seeded]);
  return { expandedRowKeys: keys, onExpandedRowsChange: (k: readonly React.Key[]) => setKeys(k as number[]) };
}
