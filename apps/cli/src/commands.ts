import type { INestApplicationContext } from '@nestjs/common';
import {
  assertAccessLevel,
  CreateMemberUseCase,
  CreateWorkspaceUseCase,
  IssueTokenUseCase,
  RevokeTokenUseCase,
  SetMemberPasswordUseCase,
  WorkspaceLookup,
  MemberProvisioning,
} from '@workbase/access';
import { AuditLogQueries } from '@workbase/audit';
import { CreateOAuthAppUseCase, ListOAuthAppsQuery } from '@workbase/oauth';
import { normaliseEmailDomain } from '@workbase/scim';
import { parseScopeList } from '@workbase/shared/kernel';

/** A command's arguments after parsing: every option is a string (repeatable ones a list). */
export type CommandArgs = Record<string, string | string[] | undefined>;

export class UsageError extends Error {}

/** What a command changed, for its audit entry: in one workspace, or (`workspaceId: null`) in the whole installation, recorded in every workspace's log. */
export interface AuditedTarget {
  readonly workspaceId: string | null;
  readonly targetKind: string;
  readonly targetId: string;
}

export interface CommandDefinition {
  readonly summary: string;
  readonly options: Readonly<Record<string, { required?: boolean; multiple?: boolean; description: string }>>;
  run(args: CommandArgs, app: INestApplicationContext): Promise<Record<string, unknown>>;
  /**
   * A command that changes a workspace names what it changed, for the audit entry that main writes
   * in the command's transaction (`cli.<command>`, actor: the CLI with its OS user).
   */
  audited?(args: CommandArgs, result: Record<string, unknown>, app: INestApplicationContext): Promise<AuditedTarget | null>;
  /** Exit status other than 0 for an answer that reports a failure (audit:verify on a broken chain). */
  failed?(result: Record<string, unknown>): boolean;
}

export function text(args: CommandArgs, name: string): string | undefined {
  const value = args[name];
  return Array.isArray(value) ? value[value.length - 1] : value;
}

export function required(args: CommandArgs, name: string): string {
  const value = text(args, name);
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

async function workspaceId(app: INestApplicationContext, args: CommandArgs): Promise<string> {
  return (await app.get(WorkspaceLookup).require(required(args, 'workspace'))).id;
}

export const COMMANDS: Record<string, CommandDefinition> = {
  'workspace:create': {
    summary: 'Create a workspace with its first admin member',
    options: {
      name: { required: true, description: 'Display name' },
      slug: { required: true, description: 'URL slug: lowercase letters, digits, hyphens' },
      'admin-email': { required: true, description: 'Email of the first admin member' },
      'admin-first-name': { description: 'First name of the admin (shown by /v2 and SCIM; without either name, SCIM shows names made from the email, /v2 "")' },
      'admin-last-name': { description: 'Last name of the admin' },
      'admin-password': { description: 'Password of the admin (for OAuth consent sign-in)' },
    },
    async run(args, app) {
      const created = await app.get(CreateWorkspaceUseCase).execute({
        name: required(args, 'name'),
        slug: required(args, 'slug'),
        adminEmail: required(args, 'admin-email'),
        adminFirstName: text(args, 'admin-first-name')?.trim() || null,
        adminLastName: text(args, 'admin-last-name')?.trim() || null,
        adminPassword: text(args, 'admin-password'),
      });
      return { workspace_id: created.workspaceId, workspace_slug: created.workspaceSlug, admin_member_id: created.adminMemberId };
    },
    async audited(_args, result) {
      return { workspaceId: String(result.workspace_id), targetKind: 'workspace', targetId: String(result.workspace_id) };
    },
  },
  'workspace:verify-domain': {
    summary: 'Mark an email domain as verified: SCIM-created users at it become active members at once (not invites)',
    options: {
      workspace: { required: true, description: 'Workspace slug or id' },
      domain: { required: true, description: 'Email domain, e.g. example.com' },
    },
    async run(args, app) {
      const workspace = await app.get(WorkspaceLookup).require(required(args, 'workspace'));
      const domain = normaliseEmailDomain(required(args, 'domain'));
      await app.get(MemberProvisioning).addVerifiedEmailDomain(workspace.id, domain);
      const updated = await app.get(WorkspaceLookup).require(workspace.id);
      return { workspace_id: workspace.id, verified_email_domains: updated.verifiedEmailDomains };
    },
    async audited(_args, result) {
      return { workspaceId: String(result.workspace_id), targetKind: 'workspace', targetId: String(result.workspace_id) };
    },
  },
  'member:create': {
    summary: 'Add a member to a workspace',
    options: {
      workspace: { required: true, description: 'Workspace slug or id' },
      email: { required: true, description: 'Email address' },
      'first-name': { description: 'First name (without either name, SCIM shows names made from the email, /v2 "")' },
      'last-name': { description: 'Last name' },
      role: { description: 'admin or member (default member)' },
      password: { description: 'Password for signing in to the OAuth consent page' },
    },
    async run(args, app) {
      const role = text(args, 'role') ?? 'member';
      try {
        assertAccessLevel(role);
      } catch {
        throw new UsageError(`--role must be admin or member, not "${role}"`);
      }
      const { memberId } = await app.get(CreateMemberUseCase).execute({
        workspaceId: await workspaceId(app, args),
        email: required(args, 'email'),
        firstName: text(args, 'first-name'),
        lastName: text(args, 'last-name'),
        accessLevel: role,
        password: text(args, 'password'),
      });
      return { member_id: memberId };
    },
    async audited(args, result, app) {
      return { workspaceId: await workspaceId(app, args), targetKind: 'workspace-member', targetId: String(result.member_id) };
    },
  },
  'member:set-password': {
    summary: "Set a member's sign-in password",
    options: {
      workspace: { required: true, description: 'Workspace slug or id' },
      email: { required: true, description: 'Email of the member' },
      password: { required: true, description: 'New password (at least 10 characters)' },
    },
    async run(args, app) {
      const { memberId } = await app
        .get(SetMemberPasswordUseCase)
        .execute(await workspaceId(app, args), required(args, 'email'), required(args, 'password'));
      return { member_id: memberId, password_set: true };
    },
    async audited(args, result, app) {
      return { workspaceId: await workspaceId(app, args), targetKind: 'workspace-member', targetId: String(result.member_id) };
    },
  },
  'token:create': {
    summary:
      'Issue a workspace API token: a service credential of the workspace, counted as admin, that no member change (deactivation, deletion, demotion) affects. Shown once; only its hash is stored',
    options: {
      workspace: { required: true, description: 'Workspace slug or id' },
      scopes: { description: 'Space-separated scopes, or "all" (the default)' },
      name: { description: 'A label for the token' },
      'expires-in': { description: 'Lifetime in seconds (default: no expiry)' },
    },
    async run(args, app) {
      const { scopes, unknown } = parseScopeList(text(args, 'scopes') ?? 'all');
      if (unknown.length > 0) throw new UsageError(`unknown scope${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
      const expiresIn = text(args, 'expires-in');
      if (expiresIn !== undefined && !/^[1-9]\d{0,9}$/.test(expiresIn)) throw new UsageError(`--expires-in must be a positive number of seconds, not "${expiresIn}"`);
      const issued = await app.get(IssueTokenUseCase).execute({
        workspaceId: await workspaceId(app, args),
        scopes,
        name: text(args, 'name'),
        expiresAt: expiresIn === undefined ? undefined : new Date(Date.now() + Number(expiresIn) * 1000),
      });
      return { access_token: issued.accessToken, token_type: 'Bearer', kind: issued.kind, scope: issued.scope, expires_at: issued.expiresAt?.toISOString() ?? null, token_id: issued.tokenId };
    },
    async audited(args, result, app) {
      return { workspaceId: await workspaceId(app, args), targetKind: 'token', targetId: String(result.token_id) };
    },
  },
  'token:revoke': {
    summary: 'Revoke a token by its value',
    options: { token: { required: true, description: 'The token to revoke' } },
    async run(args, app) {
      const revoked = await app.get(RevokeTokenUseCase).execute(required(args, 'token'));
      if (!revoked) throw new UsageError('no live token matches --token');
      return { revoked: true, workspace_id: revoked.workspaceId, token_id: revoked.tokenId };
    },
    async audited(_args, result) {
      return { workspaceId: String(result.workspace_id), targetKind: 'token', targetId: String(result.token_id) };
    },
  },
  'app:create': {
    summary: 'Register an OAuth app (client); prints client_id and client_secret (shown once; only its hash is stored)',
    options: {
      name: { required: true, description: 'Name shown on the consent page' },
      'redirect-uri': {
        required: true,
        multiple: true,
        description: 'Exact redirect URI (repeatable); add "$BASE_URL/docs/oauth2-redirect.html" to use the app from /docs',
      },
      scopes: { description: 'Space-separated scopes the app may be granted, or "all" (the default)' },
    },
    async run(args, app) {
      const uris = args['redirect-uri'];
      const created = await app.get(CreateOAuthAppUseCase).execute({
        name: required(args, 'name'),
        redirectUris: Array.isArray(uris) ? uris : uris ? [uris] : [],
        scopes: text(args, 'scopes'),
      });
      return { client_id: created.clientId, client_secret: created.clientSecret };
    },
    async audited(_args, result) {
      return { workspaceId: null, targetKind: 'oauth-app', targetId: String(result.client_id) };
    },
  },
  'audit:verify': {
    summary:
      "Recompute a workspace's audit chain (the sealed entries from the anchor, then the content hash of those not sealed yet): exit 0 when every entry holds, 3 naming the first entry that does not",
    options: { workspace: { required: true, description: 'Workspace slug or id' } },
    async run(args, app) {
      const id = await workspaceId(app, args);
      const checked = await app.get(AuditLogQueries).verify(id);
      return {
        workspace_id: id,
        intact: checked.firstBreak === null,
        entries_checked: checked.entriesChecked,
        unsealed_checked: checked.unsealedChecked,
        anchor_sequence: checked.anchorSeq,
        last_sequence: checked.lastSeq,
        first_bad_entry: checked.firstBreak && { sequence: checked.firstBreak.seq, id: checked.firstBreak.id, reason: checked.firstBreak.reason },
      };
    },
    failed: (result) => result.intact !== true,
  },
  'app:list': {
    summary: 'List the registered OAuth apps (without secrets)',
    options: {},
    async run(_args, app) {
      return { data: await app.get(ListOAuthAppsQuery).execute() };
    },
  },
};
