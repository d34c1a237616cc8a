/** The answer of `GET /api/transfers/stats?year=`: the transfer statistics panel of a year. */
export interface TransferStats {
  year: number;
  /** Per kind of transfer: started in the year, completed in the year, under way now. */
  kinds: { key: 'in' | 'out' | 'internal' | 'floating-out' | 'floating-in'; title: string; started: number; completed: number; underway: number }[];
  /** Completed per month, by kind key. */
  byMonth: { month: string; counts: Partial<Record<TransferStats['kinds'][number]['key'], number>> }[];
  /** Transfers out started in the year by reason (转出原因) and by letter kind (正式/临时). */
  outReasons: { label: string; count: number }[];
  outKinds: { label: string; count: number }[];
}
