CREATE TABLE `interaction_claims` (
	`id` text PRIMARY KEY NOT NULL,
	`claimed_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `interaction_claims_at` ON `interaction_claims` (`claimed_at`);--> statement-breakpoint
CREATE INDEX `outbox_pending` ON `outbox_messages` (`id`) WHERE "outbox_messages"."status" = 'pending';--> statement-breakpoint
CREATE INDEX `outbox_lane` ON `outbox_messages` (`to`,coalesce("user_id", ''),coalesce("channel_id", ''),`id`) WHERE "outbox_messages"."status" = 'pending';