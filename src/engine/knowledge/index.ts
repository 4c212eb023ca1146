/** Fog of war: what each army knows of where the others are. @see RULINGS 6; docs/rulings.md (Fog of war) */
export { fogFalls, isFog, knownDestroyed, knownPositions, NO_KNOWLEDGE, sightedNow, stateAsKnown, withCourierReport } from './knowledge.js';
export { knowledgeStep } from './knowledgeStep.js';
