ALTER TABLE `campaigns` ADD `ready` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `early_from` text;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `resume_at` text;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `pause_reason` text;--> statement-breakpoint
CREATE INDEX `campaigns_resume` ON `campaigns` (`status`,`resume_at`);