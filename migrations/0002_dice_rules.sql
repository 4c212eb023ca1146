CREATE TABLE `knowledge` (
	`campaign_id` text NOT NULL,
	`key` text NOT NULL,
	`data` text NOT NULL,
	PRIMARY KEY(`campaign_id`, `key`),
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `campaigns` ADD `manual_dice` text DEFAULT '{"nextId":1,"requests":[]}' NOT NULL;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `next_courier_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `ticks` ADD `frame` text;--> statement-breakpoint
CREATE INDEX `events_type` ON `events` (`campaign_id`,`type`);