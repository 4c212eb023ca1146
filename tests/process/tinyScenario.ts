/** A scenario small enough that hundreds of ticks (each drawing its map) play in seconds. */
export function tinyScenario(armyName = 'Red Host', commander = 'Captain Red'): string {
  return JSON.stringify({
    id: 'tiny',
    name: 'Tiny Valley',
    start: { season: 'spring', weather: 'clear' },
    map: { width: 6, height: 5, terrain: ['cccccc', 'cfcchc', 'cccccc', 'chcfcc', 'cccccc'] },
    sides: [
      { id: 'red', name: 'Red', colour: '#b03030', hostileTo: ['blue'] },
      { id: 'blue', name: 'Blue', colour: '#3050b0', hostileTo: [] },
    ],
    armies: [
      { id: 'red', name: armyName, commander, side: 'red', hex: '0101', movementClass: 'infantry', sight: 'light', regiments: [{ id: 'r1', name: 'First', companies: [{ troopType: 'foot', basic: 'infantry', figures: 10 }] }] },
      { id: 'blue', name: 'Blue Host', commander: 'Captain Blue', side: 'blue', hex: '0605', movementClass: 'infantry', sight: 'light', regiments: [{ id: 'r1', name: 'First', companies: [{ troopType: 'foot', basic: 'infantry', figures: 10 }] }] },
    ],
  });
}
