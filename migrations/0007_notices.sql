CREATE TABLE `notices` (
	`campaign_id` text NOT NULL,
	`user_id` text NOT NULL,
	`reminder_minutes` integer,
	`tick_report` text DEFAULT 'changes' NOT NULL,
	`order_confirm` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`campaign_id`, `user_id`),
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `campaigns` ADD `reminded` text DEFAULT '[]' NOT NULL;