/** A page of a list as every paged endpoint answers it (spec §7 paging): the rows and the total count. */
export interface Page<T> {
  content: T[];
  totalElements: number;
}
