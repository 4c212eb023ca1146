/** Fog of war: what each army knows of where the others are. @see RULINGS 6; docs/rulings.md (Fog of war) */
export { fogFalls, isFog, knownDestroyed, knownPositions, type KnowledgeState, NO_KNOWLEDGE, sightedNow, type SightingHow, stateAsKnown, withCourierReport } from './knowledge.js';
export { knowledgeStep } from './knowledgeStep.js';
