/** Dice: the injected Dice and the seeded dice whose state travels with the campaign. @see RULINGS 7 */
export { createRngState, type Dice, type DiceRoll, halfDice, type RngState, SeededDice } from './dice.js';
