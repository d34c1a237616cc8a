/** One slice of a member-analysis dimension: the filter value, its label and the member count. */
export interface Slice {
  value: string;
  label: string;
  count: number;
}

/** `GET /api/member/analysis`: the total and the counts per dimension. */
export interface Analysis {
  total: number;
  dimensions: { key: string; title: string; slices: Slice[] }[];
}
