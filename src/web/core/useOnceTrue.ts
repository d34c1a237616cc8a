import { useState } from 'react';

/**
 * True from the first render where `value` was true on. For dialogs and drawers loaded on demand that
 * stay mounted once used (a closing animation, a running job's progress).
 */
export function useOnceTrue(value: boolean): boolean {
  const [seen, setSeen] = useState(value);
  if (value && !seen) setSeen(true);
  return seen || value;
}
