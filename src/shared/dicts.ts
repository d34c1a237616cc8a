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

/** An entry as the dictionary API answers it (`GET api/dictDetail`, `/cache`, `/map`). */
export interface DictDetail {
  id: number;
  value: string;
  label: string;
  dictSort: number;
  parent: string | null;
  disabled: boolean;
}

/** An entry as `POST api/dictDetail` takes it (with `dictName`) and `PUT` (with `id`). */
export interface DictDetailInput {
  value: string;
  label: string;
  dictSort?: number;
  parent?: string | null;
  disabled?: boolean;
}

/** A dictionary as `GET api/dict` lists it. */
export interface DictDto {
  id: number;
  code: string;
  name: string;
  description: string;
  entryCount: number;
  createTime: string;
  updateTime: string;
}

/** A dictionary as `POST api/dict` takes it (and `PUT`, with `id`; the code is fixed once created). */
export interface DictInput {
  code: string;
  name: string;
  description?: string;
}
