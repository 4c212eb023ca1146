CREATE TABLE `journal` (
	`campaign_id` text NOT NULL,
	`seq` integer NOT NULL,
	`kind` text NOT NULL,
	`invocation` integer NOT NULL,
	`at` text NOT NULL,
	`time_index` integer NOT NULL,
	`input` text,
	`dice` text,
	`change` text NOT NULL,
	`state_version` integer NOT NULL,
	PRIMARY KEY(`campaign_id`, `seq`),
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
