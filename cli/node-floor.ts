/**
 * Whether this Node is at least the floor ("22.12"), compared number by number (as text, "22.9" would pass and
 * "9.11" too): on an older one the rest of hac cannot even load. Kept plain so an old Node can parse it.
 */
export function nodeIsNewEnough(found: string, floor: string): boolean {
  const have = found.split('.').map(Number);
  const need = floor.split('.').map(Number);
  for (let i = 0; i < need.length; i++) if ((have[i] ?? 0) !== need[i]) return (have[i] ?? 0) > need[i]!;
  return true;
}
