export { runDueTicks, type DueTickReport } from './runDueTicks.js';
export { sendReminders, type ReminderReport } from './sendReminders.js';
export { resumeEndedPauses } from './resumePauses.js';
export { prewarmDue, warmMapPicture } from './prewarm.js';
