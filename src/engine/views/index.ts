export * from './mapView.js';
export * from './battlefieldSketch.js';
