/** What leaves the engine to be drawn: map views per viewer and battlefield sketches. @see RULINGS 6 Secrets */
export { type BattlefieldSketch, type PlacedCard } from './battlefieldSketch.js';
export { type ArmyEstimate, type CommanderKnowledge, commanderMapView, estimateFromContact, everyPositionView, publicMapView } from './mapView.js';
export { type MapView } from './mapView.js';
