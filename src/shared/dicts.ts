/** One entry of a dictionary, as `GET api/dictDetail` answers it (plus display order and grouping). */
export interface DictEntry {
  value: string;
  label: string;
  sort: number;
  disabled?: boolean;
  /** Value of the grouping entry in the same dictionary, e.g. 博士 for 哲学博士学位. */
  parent?: string;
}

/** A dictionary file `schemas/dicts/<code>.json`. */
export interface Dict {
  code: string;
  name: string;
  description?: string;
  entries: DictEntry[];
}
