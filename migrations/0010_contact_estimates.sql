CREATE TABLE `contact_estimates` (
	`campaign_id` text NOT NULL,
	`army_id` text NOT NULL,
	`target_id` text NOT NULL,
	`contact_id` text NOT NULL,
	`ord` integer NOT NULL,
	`estimate` text NOT NULL,
	PRIMARY KEY(`campaign_id`, `army_id`, `target_id`, `contact_id`),
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_estimates_contact` ON `contact_estimates` (`campaign_id`,`contact_id`);
--> statement-breakpoint
INSERT INTO `contact_estimates` (`campaign_id`, `army_id`, `target_id`, `contact_id`, `ord`, `estimate`)
SELECT c.`campaign_id`, o.key, e.key, c.`id`,
	((json_extract(c.`data`, '$.openedAt.day') * 4 + json_extract(c.`data`, '$.openedAt.half')) * 1048576 + CAST(substr(c.`id`, 2) AS INTEGER)) * 64
		+ row_number() OVER (PARTITION BY c.`campaign_id`, c.`id`, o.key ORDER BY e.id) - 1,
	e.value
FROM `contacts` c, json_each(c.`data`, '$.data.estimates') o, json_each(o.value) e
WHERE c.`live` = 0 AND EXISTS (SELECT 1 FROM json_each(c.`army_ids`) a WHERE a.value = o.key);
