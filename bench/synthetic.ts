/**
 * A synthetic scenario for load measurements: a large map of mixed terrain with roads and a
 * river, and many small armies spread over it on two hostile sides.
 */
export function syntheticScenario(opts: { width: number; height: number; armies: number }): unknown {
  const { width, height } = opts;
  const letters = 'ccccfhcsccfh';
  const terrain = Array.from({ length: height }, (_, r) => Array.from({ length: width }, (_, c) => letters[(c * 7 + r * 13 + ((c * r) % 5)) % letters.length]).join(''));
  const id = (c: number, r: number): string => {
    const w = Math.max(width, height) > 99 ? 3 : 2;
    return String(c).padStart(w, '0') + String(r).padStart(w, '0');
  };
  const roads = [Array.from({ length: width }, (_, c) => id(c + 1, Math.floor(height / 2)))];
  const armies = [];
  const perRow = Math.ceil(Math.sqrt(opts.armies));
  for (let i = 0; i < opts.armies; i++) {
    const c = 2 + Math.floor(((i % perRow) * (width - 4)) / perRow);
    const r = 2 + Math.floor((Math.floor(i / perRow) * (height - 4)) / perRow);
    armies.push({
      id: `a${i}`, name: `Army ${i}`, commander: `Commander ${i}`, side: i % 2 === 0 ? 'red' : 'blue', hex: id(c, r),
      movementClass: i % 5 === 0 ? 'cavalry' : 'infantry', sight: 'light',
      regiments: [{ id: 'r1', name: 'First', companies: [{ troopType: 'foot', basic: 'infantry', figures: 10 + (i % 7) }] }, { id: 'r2', name: 'Second', companies: [{ troopType: 'archers', basic: 'infantry', figures: 8 }] }],
    });
  }
  return {
    id: 'synthetic', name: 'Synthetic', start: { season: 'bench', weather: 'clear' },
    map: { width, height, terrain, roads },
    sides: [{ id: 'red', name: 'Red', colour: '#b03030', hostileTo: ['blue'] }, { id: 'blue', name: 'Blue', colour: '#3050b0', hostileTo: [] }],
    armies,
  };
}
