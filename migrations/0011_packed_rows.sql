PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` text NOT NULL,
	`game_day` integer NOT NULL,
	`game_half` integer NOT NULL,
	`type` text NOT NULL,
	`actor_user_id` text,
	`audience` text NOT NULL,
	`text` text,
	`data` text,
	`created_at` text NOT NULL,
	`undone` integer DEFAULT false NOT NULL,
	`packed` blob
);
--> statement-breakpoint
INSERT INTO `__new_events`("id", "campaign_id", "game_day", "game_half", "type", "actor_user_id", "audience", "text", "data", "created_at", "undone") SELECT "id", "campaign_id", "game_day", "game_half", "type", "actor_user_id", "audience", "text", "data", "created_at", "undone" FROM `events`;--> statement-breakpoint
DROP TABLE `events`;--> statement-breakpoint
ALTER TABLE `__new_events` RENAME TO `events`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `events_campaign` ON `events` (`campaign_id`,`id`);--> statement-breakpoint
CREATE INDEX `events_audience` ON `events` (`campaign_id`,`audience`);--> statement-breakpoint
CREATE INDEX `events_type` ON `events` (`campaign_id`,`type`);--> statement-breakpoint
CREATE INDEX `events_plain` ON `events` (`created_at`) WHERE ("events"."packed" is null) and ("events"."type" <> 'diceRolled') and ("events"."type" <> 'diceSeedRevealed') and ("events"."type" <> 'diceSeedCommitted');--> statement-breakpoint
CREATE TABLE `__new_journal` (
	`campaign_id` text NOT NULL,
	`seq` integer NOT NULL,
	`kind` text NOT NULL,
	`invocation` integer NOT NULL,
	`at` text NOT NULL,
	`time_index` integer NOT NULL,
	`input` text,
	`dice` text,
	`change` text,
	`state_version` integer NOT NULL,
	`packed` blob,
	PRIMARY KEY(`campaign_id`, `seq`),
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_journal`("campaign_id", "seq", "kind", "invocation", "at", "time_index", "input", "dice", "change", "state_version") SELECT "campaign_id", "seq", "kind", "invocation", "at", "time_index", "input", "dice", "change", "state_version" FROM `journal`;--> statement-breakpoint
DROP TABLE `journal`;--> statement-breakpoint
ALTER TABLE `__new_journal` RENAME TO `journal`;--> statement-breakpoint
CREATE INDEX `journal_plain` ON `journal` (`at`) WHERE "journal"."packed" is null;--> statement-breakpoint
ALTER TABLE `ticks` ADD `frame_packed` blob;--> statement-breakpoint
CREATE INDEX `ticks_plain_frame` ON `ticks` (`ran_at`) WHERE "ticks"."frame" is not null;