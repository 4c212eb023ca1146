/**
 * The campaign state: the plain data model (its parts, orders, settings, ids). A new campaign and
 * a stored state brought up to date are engine/campaign's.
 */
export { contactHistory } from './aftermath.js';
export { armiesAt, closeArmies, openArmies, writeArmy } from './armiesByHex.js';
export { byId } from './byId.js';
export { type CampaignState, getArmy } from './campaign.js';
export { type CampaignSettings, DEFAULT_SETTINGS, TEMPERATURES, type Temperature } from './settings.js';
export { checkSettings, quietMinutes, readSettings } from './settings.js';
export { NUMBER_LIMITS, SETTING_LIMITS, wholeNumber } from './settings.js';
export { compareIds, newContactId, newCourierId } from './ids.js';
export { isOpen } from './openContact.js';
export { CONTACT_STEPS, type ContactData, type ContactDie, type ContactRecord, type ContactStep, type Decision, isContactStep, type OperationLog, type Step1Choice } from './contactRecords.js';
export { type AppliedModifier, type ArrangedForce, type BaselineLayout, type BattleConditions, type DeploymentBriefing, type DeploymentEntry, type DeploymentUnits, type DeployUnit, type DisengagementOutcome, type DisengageOperation, type ForceCondition, type ForceTableNote, type LossCell, type MarchFormation, type OpponentResult, type TableNote, type TurnCasualty } from './battleRecords.js';
export { type BattlefieldCell, type CompositionLevel, CONTACT_MODIFIERS, type ContactModifierCode, type ContactTableRow, type DealtCard, type Estimate, type EstimatedComposition, type ForceTruth, GRID_COLUMNS, GRID_ROWS, type ScoutOutcome, TERRAIN_DECK, type TerrainCard } from './reconnaissanceRecords.js';
export { type KnowledgeState, type Sighting, type SightingHow, type Sightings } from './knowledgeRecords.js';
export { type Assembly, type AwaitedBatch, type CrossingMethod, type DebarkOrder, type MoveOrder, type MovePeriod, type Order, type OrderGiven, type RestOrder, type SailOrder } from './orders.js';
export { type ArmyPlan, type ContactPolicy, type PlanEstimate, type PlanOrder } from './planRecords.js';
export { type CourierData, type CourierRecord, type FleetState, VESSEL_KINDS, type VesselCounts, type VesselKind } from './waterRecords.js';
export { type Sky, type WeatherEffects, type WeatherState, type Wind } from './weatherRecords.js';
export type { StepOutput, TickStep } from './step.js';
