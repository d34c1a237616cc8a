/**
 * Look-ups of a code a client sent in a constant map. `code in MAP` and `MAP[code]` also find the
 * members every object inherits (`constructor`, `toString`, `__proto__`, `hasOwnProperty`), so a crafted
 * code passed such a check and broke later with a 500. Only the map's own keys count here
 * (tests/unit/own-lookups.test.ts keeps `in <Map>` out of the sources).
 */

/** Whether `key` is one of the map's own keys (a string or number; anything else is not). */
export function hasOwn<T extends object>(map: T, key: unknown): key is keyof T {
  return (typeof key === 'string' || typeof key === 'number') && Object.prototype.hasOwnProperty.call(map, key);
}

/** The map's own value under `key`, or undefined (never an inherited member). */
export function ownValue<V>(map: Readonly<Record<string | number, V>>, key: unknown): V | undefined {
  return hasOwn(map, key) ? map[key as keyof typeof map] : undefined;
}

/** Names every object inherits: a key of a request body named like one is refused (it would shadow it). */
export function isInheritedName(key: string): boolean {
  return Object.prototype.hasOwnProperty.call(Object.prototype, key);
}
