/**
 * Rule profiles: the movement rules a campaign plays by (Valormr 000, the default; ACKS 004) and
 * the tabletop its battles are fought on (Valormr 001; the chapters 002 and 003), as data the
 * rules read. @see 000 Overland Travel; 004 Moving Armies; 002 and 003 Movement
 */
export { armySize, basePoints, columnMiles, companiesInBattle, isTireless, machinesAssembled, owesNoRest, pointsForSpeed, sizedPoints } from './armyRates.js';
export {
  ACKS_PROFILE, EXPEDITION_SPEEDS, type Fraction, LAND_TERRAINS, type LandTerrain, LARGE_ARMIES, type MarchingDaysRule, MOVEMENT_PROFILE_IDS, MOVEMENT_PROFILES,
  type MovementProfile, movementProfile, type MovementProfileId, times, timesUp, VALORMR_PROFILE,
} from './movementProfile.js';
export {
  CHAPTER_002, type CardReading, fromInches, type LengthUnit, TACTICAL_PROFILE_IDS, TACTICAL_PROFILES, type TableFormation, type TacticalProfile, unitMark,
  tacticalProfile, type TacticalProfileId, toInches, VALORMR_TABLE, WARLORD_003,
} from './tacticalProfile.js';
