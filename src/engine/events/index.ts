/** What the engine reports: audiences, typed facts, their sentences, and the words describers share. @see RULINGS 6 Secrets */
export { type ArmyAudience, type Audience, type EngineEvent, event, type Fact, isFor, type Names, namesOf, PUBLIC, type PublicAudience, REFEREE, type RefereeAudience, tell, toArmy, type Told } from './events.js';
export { capital, echo, ECHO_MAX, escapeName, isPlainName, literal, listNames, PLAIN_NAME_RULE, signedModifier } from './words.js';
