/** Game time: half periods, days and weeks, and how they read. @see RULINGS 2 Time */
export { dayOfWeek, formatGameTime, fromIndex, type GameTime, HALF_PERIODS, type HalfPeriod, halfPeriodEndHour, halfPeriodName, isPeriodStart, nextHalf, ordinal, START_TIME, timeIndex } from './gameTime.js';
