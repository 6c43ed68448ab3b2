import { Foundation1763800000000 } from './1763800000000-foundation';
import { Records1763840000000 } from './1763840000000-records';
import { Webhooks1763830000000 } from './1763830000000-webhooks';
import { OAuth1763810000000 } from './1763810000000-oauth';
import { Scim1763820000000 } from './1763820000000-scim';
import { NotesMeetings1763860000000 } from './1763860000000-notes-meetings';
import { Activities1763850000000 } from './1763850000000-activities';
import { Lists1763880000000 } from './1763880000000-lists';
import { RecordQueryStatistics1763904100000 } from './1763904100000-record-query-statistics';
import { RequestRateWindows1763990000000 } from './1763990000000-request-rate-windows';
import { OAuthSignInFailures1764000000000 } from './1764000000000-oauth-sign-in-failures';
import { WebhookTargetRateBuckets1764010000000 } from './1764010000000-webhook-target-rate-buckets';
import { RecordValuesTrigram1764020000000 } from './1764020000000-record-values-trigram';
import { WebhookTargetIsolation1764100000000 } from './1764100000000-webhook-target-isolation';
import { CacheInvalidationTriggers1764700000000 } from './1764700000000-cache-invalidation-triggers';
import { ListMemberAccess1764900000000 } from './1764900000000-list-member-access';
import { ScimServiceTokensProfiles1764200000000 } from './1764200000000-scim-service-tokens-profiles';
import { TasksCommentsCallRecordings1764500000000 } from './1764500000000-tasks-comments-call-recordings';
import { UniqueKeysByWorkspace1764600000000 } from './1764600000000-unique-keys-by-workspace';
import { ChoiceInvalidationTriggers1765000000000 } from './1765000000000-choice-invalidation-triggers';
import { ActivityInvalidationTrigger1765100000000 } from './1765100000000-activity-invalidation-trigger';
import { EventFeed1765200000000 } from './1765200000000-event-feed';
import { WebhookTargetAnsweredAt1765270000000 } from './1765270000000-webhook-target-answered-at';
import { Files1765210000000 } from './1765210000000-files';
import { RecordsUpdatedAt1765400000000 } from './1765400000000-records-updated-at';
import { Views1765410000000 } from './1765410000000-views';
import { ScimDefaultNames1765900000000 } from './1765900000000-scim-default-names';
import { AuditLog1765500000000 } from './1765500000000-audit-log';
import { Trash1765600000000 } from './1765600000000-trash';
import { AuditPending1766100000000 } from './1766100000000-audit-pending';
import { EventOutboxKeys1766110000000 } from './1766110000000-event-outbox-keys';

/**
 * Every migration, in order. Listed explicitly (not globbed) so that the same list works from
 * TypeScript sources under jest and from the compiled build. Append new migrations at the end.
 */
export const MIGRATIONS = [Foundation1763800000000, OAuth1763810000000, Scim1763820000000, Webhooks1763830000000, Records1763840000000, Activities1763850000000, NotesMeetings1763860000000, Lists1763880000000, RecordQueryStatistics1763904100000, RequestRateWindows1763990000000, OAuthSignInFailures1764000000000, WebhookTargetRateBuckets1764010000000, RecordValuesTrigram1764020000000, WebhookTargetIsolation1764100000000, ScimServiceTokensProfiles1764200000000, TasksCommentsCallRecordings1764500000000, UniqueKeysByWorkspace1764600000000, CacheInvalidationTriggers1764700000000, ListMemberAccess1764900000000, ChoiceInvalidationTriggers1765000000000, ActivityInvalidationTrigger1765100000000, EventFeed1765200000000, Files1765210000000, WebhookTargetAnsweredAt1765270000000, RecordsUpdatedAt1765400000000, Views1765410000000, AuditLog1765500000000, Trash1765600000000, ScimDefaultNames1765900000000, AuditPending1766100000000, EventOutboxKeys1766110000000];
