PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_ticks` (
	`campaign_id` text NOT NULL,
	`time_index` integer NOT NULL,
	`ran_at` text NOT NULL,
	`snapshot` text,
	`state_version` integer DEFAULT 1 NOT NULL,
	`last_event_id` integer NOT NULL,
	PRIMARY KEY(`campaign_id`, `time_index`),
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_ticks`("campaign_id", "time_index", "ran_at", "snapshot", "state_version", "last_event_id") SELECT "campaign_id", "time_index", "ran_at", "snapshot", 1, "last_event_id" FROM `ticks`;--> statement-breakpoint
DROP TABLE `ticks`;--> statement-breakpoint
ALTER TABLE `__new_ticks` RENAME TO `ticks`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `remind_at` text;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `state_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `held_due` text;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `deadline_extensions` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `deadline_extension_minutes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `last_tick_at` text;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `catch_up_allowance` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `campaigns_due` ON `campaigns` (`status`,`next_tick_at`);--> statement-breakpoint
CREATE INDEX `campaigns_remind` ON `campaigns` (`status`,`remind_at`);--> statement-breakpoint
ALTER TABLE `contacts` ADD `live` integer DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX `contacts_live` ON `contacts` (`campaign_id`,`live`);--> statement-breakpoint
ALTER TABLE `couriers` ADD `live` integer DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX `couriers_live` ON `couriers` (`campaign_id`,`live`);--> statement-breakpoint
ALTER TABLE `events` ADD `undone` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `pictures` text;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `mentions` text;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `parts_sent` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `nonce` text;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `claimed_by` text;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `lease_until` text;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `read_at` text;--> statement-breakpoint
CREATE INDEX `outbox_campaign` ON `outbox_messages` (`campaign_id`,`status`);--> statement-breakpoint
-- Data: undone events were marked by renaming their type; now by a column.
UPDATE `events` SET `undone` = 1, `type` = substr(`type`, 1, length(`type`) - 7) WHERE `type` LIKE '%:undone';--> statement-breakpoint
-- Data: no image bytes in the database. Only a message still waiting to be sent keeps its legacy file.
UPDATE `outbox_messages` SET `files` = NULL WHERE `status` <> 'pending';--> statement-breakpoint
UPDATE `outbox_messages` SET `nonce` = lower(hex(randomblob(8))) WHERE `nonce` IS NULL;--> statement-breakpoint
-- Data: control state read from the log until now moves to columns.
UPDATE `campaigns` SET `last_tick_at` = (SELECT max(`ran_at`) FROM `ticks` WHERE `ticks`.`campaign_id` = `campaigns`.`id`);--> statement-breakpoint
UPDATE `campaigns` SET `held_due` = `next_tick_at` WHERE `next_tick_at` IS NOT NULL AND `next_tick_at` = (SELECT json_extract(`data`, '$.due') FROM `events` WHERE `events`.`campaign_id` = `campaigns`.`id` AND `events`.`type` = 'tickHeld' ORDER BY `events`.`id` DESC LIMIT 1);--> statement-breakpoint
UPDATE `campaigns` SET
  `deadline_extensions` = (SELECT count(*) FROM `events` e WHERE e.`campaign_id` = `campaigns`.`id` AND e.`type` = 'deadlineExtended' AND e.`game_day` = `campaigns`.`clock_day` AND e.`game_half` = `campaigns`.`clock_half`),
  `deadline_extension_minutes` = (SELECT coalesce(sum(json_extract(e.`data`, '$.minutes')), 0) FROM `events` e WHERE e.`campaign_id` = `campaigns`.`id` AND e.`type` = 'deadlineExtended' AND e.`game_day` = `campaigns`.`clock_day` AND e.`game_half` = `campaigns`.`clock_half`);--> statement-breakpoint
UPDATE `campaigns` SET `remind_at` = strftime('%Y-%m-%dT%H:%M:%fZ', `next_tick_at`, '-' || coalesce(json_extract(`settings`, '$.reminderLeadMinutes'), 120) || ' minutes')
  WHERE `next_tick_at` IS NOT NULL AND coalesce(json_extract(`settings`, '$.reminderLeadMinutes'), 120) > 0 AND (`reminder_sent_for` IS NULL OR `reminder_sent_for` <> `next_tick_at`);
