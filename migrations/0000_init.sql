CREATE TABLE `armies` (
	`campaign_id` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`commander` text NOT NULL,
	`side_id` text NOT NULL,
	`hex` text NOT NULL,
	`formation` text NOT NULL,
	`data` text NOT NULL,
	PRIMARY KEY(`campaign_id`, `id`),
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `campaigns` (
	`id` text PRIMARY KEY NOT NULL,
	`guild_id` text NOT NULL,
	`channel_id` text NOT NULL,
	`name` text NOT NULL,
	`scenario_id` text NOT NULL,
	`scenario` text NOT NULL,
	`owner_user_id` text NOT NULL,
	`status` text NOT NULL,
	`season` text DEFAULT '' NOT NULL,
	`settings` text NOT NULL,
	`clock_day` integer NOT NULL,
	`clock_half` integer NOT NULL,
	`rng` text NOT NULL,
	`next_id` integer DEFAULT 1 NOT NULL,
	`next_tick_at` text,
	`reminder_sent_for` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `campaigns_channel` ON `campaigns` (`guild_id`,`channel_id`);--> statement-breakpoint
CREATE TABLE `contacts` (
	`campaign_id` text NOT NULL,
	`id` text NOT NULL,
	`step` text NOT NULL,
	`army_ids` text NOT NULL,
	`data` text NOT NULL,
	PRIMARY KEY(`campaign_id`, `id`),
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `couriers` (
	`campaign_id` text NOT NULL,
	`id` text NOT NULL,
	`status` text NOT NULL,
	`data` text NOT NULL,
	PRIMARY KEY(`campaign_id`, `id`),
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` text NOT NULL,
	`game_day` integer NOT NULL,
	`game_half` integer NOT NULL,
	`type` text NOT NULL,
	`actor_user_id` text,
	`audience` text NOT NULL,
	`text` text NOT NULL,
	`data` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `events_campaign` ON `events` (`campaign_id`,`id`);--> statement-breakpoint
CREATE INDEX `events_audience` ON `events` (`campaign_id`,`audience`);--> statement-breakpoint
CREATE TABLE `individuals` (
	`campaign_id` text NOT NULL,
	`army_id` text NOT NULL,
	`id` text NOT NULL,
	`ord` integer NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`data` text NOT NULL,
	PRIMARY KEY(`campaign_id`, `army_id`, `id`)
);
--> statement-breakpoint
CREATE TABLE `members` (
	`campaign_id` text NOT NULL,
	`user_id` text NOT NULL,
	`army_id` text DEFAULT '' NOT NULL,
	`role` text NOT NULL,
	`display_name` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`campaign_id`, `user_id`, `army_id`, `role`),
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `members_army` ON `members` (`campaign_id`,`army_id`);--> statement-breakpoint
CREATE TABLE `orders` (
	`campaign_id` text NOT NULL,
	`army_id` text NOT NULL,
	`kind` text NOT NULL,
	`given_by` text NOT NULL,
	`data` text NOT NULL,
	PRIMARY KEY(`campaign_id`, `army_id`),
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `outbox_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` text NOT NULL,
	`to` text NOT NULL,
	`user_id` text,
	`channel_id` text,
	`content` text NOT NULL,
	`data` text,
	`files` text,
	`buttons` text,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text NOT NULL,
	`last_error` text,
	`dedupe_key` text,
	`created_at` text NOT NULL,
	`delivered_at` text
);
--> statement-breakpoint
CREATE INDEX `outbox_due` ON `outbox_messages` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_dedupe` ON `outbox_messages` (`dedupe_key`);--> statement-breakpoint
CREATE TABLE `regiments` (
	`campaign_id` text NOT NULL,
	`army_id` text NOT NULL,
	`id` text NOT NULL,
	`ord` integer NOT NULL,
	`name` text NOT NULL,
	`role` text NOT NULL,
	`original_figures` integer NOT NULL,
	`current_figures` integer NOT NULL,
	`companies` text NOT NULL,
	PRIMARY KEY(`campaign_id`, `army_id`, `id`)
);
--> statement-breakpoint
CREATE INDEX `regiments_army` ON `regiments` (`campaign_id`,`army_id`);--> statement-breakpoint
CREATE TABLE `sides` (
	`campaign_id` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`colour` text NOT NULL,
	`hostile_to` text NOT NULL,
	PRIMARY KEY(`campaign_id`, `id`),
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `ticks` (
	`campaign_id` text NOT NULL,
	`time_index` integer NOT NULL,
	`ran_at` text NOT NULL,
	`snapshot` text NOT NULL,
	`last_event_id` integer NOT NULL,
	PRIMARY KEY(`campaign_id`, `time_index`),
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `weather` (
	`campaign_id` text PRIMARY KEY NOT NULL,
	`sky` text NOT NULL,
	`fog` integer NOT NULL,
	`wind` text NOT NULL,
	`rain_level` integer NOT NULL,
	`data` text NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
