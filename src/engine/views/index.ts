/** What leaves the engine to be drawn: map views per viewer and battlefield sketches. @see RULINGS 6 Secrets */
export { BATTLEFIELD_COLUMNS, BATTLEFIELD_ROWS, type BattlefieldCard, type BattlefieldSketch, type PlacedCard } from './battlefieldSketch.js';
export { type ArmyEstimate, type CommanderKnowledge, commanderMapView, estimateFromContact, everyPositionView, publicMapView } from './mapView.js';
export { type MapToken, type MapView } from './mapView.js';
