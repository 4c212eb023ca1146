export { runDueTicks, type DueTickReport, type RunDueTicksOptions } from './runDueTicks.js';
export { sendReminders, type ReminderReport } from './sendReminders.js';
