CREATE TABLE `interaction_claims` (
	`id` text PRIMARY KEY NOT NULL,
	`claimed_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `interaction_claims_at` ON `interaction_claims` (`claimed_at`);