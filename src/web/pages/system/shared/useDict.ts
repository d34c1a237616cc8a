/** The admin pages use the app's one dictionary cache (core/dicts). */
export { dictQueryKey, useDict, type DictEntry } from '../../../core/dicts';
