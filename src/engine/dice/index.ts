/** Dice: the injected Dice and the campaign's seeded dice, whose state travels with it. @see RULINGS 7; docs/dice.md */
export {
  createRngState, type Dice, type DiceRoll, dieFromSeed, firstPeriod, halfDice, type JournalDie, type LoggedRoll, type RecordedDice, type NeededRoll,
  type RngState, secretSeedOf, SEED_PATTERN, seedCommitment, SeededDice, seedFromNumber,
} from './dice.js';
export { classifyRoll, type DiceStream, enteredByArmy, isContactRoll, isManualRoll, MANUAL_DICE_GROUPS, type ManualDiceGroup } from './rollKinds.js';
export { sha256Hex } from './sha256.js';
export { neededWhateverTheyShow } from './trials.js';
export { derivedId } from './derivedId.js';
export { askForDice, clearDice, consumeDice, enterDie, enteredDice, holdForDice, type ManualDiceState, type ManualRollRequest, NO_MANUAL_DICE, releaseHold, type WhoRolls } from './manual.js';
export { checkPeriod, checkStream, type PeriodCheck, type RollRecord, type StreamCheck } from './checkPeriod.js';
