import * as z from 'zod/mini';
import { CompanySchema, type Role, TokensSchema, UserSchema } from './auth';
import { email, newPassword, opaqueToken, requiredText } from './fields';
import { httpContract, MANAGERS } from './route';

/** Team invitations and member management (beyond the first design, which showed Invite Member disabled; docs/product.md §2.16). */

/** Roles an invitation or a role change may give; there is one OWNER, the person who registered. */
export const INVITABLE_ROLES = ['ADMIN', 'AGENT'] as const;
export type InvitableRole = (typeof INVITABLE_ROLES)[number];

/**
 * The roles each role may grant by invitation: only the OWNER grants ADMIN, ADMINs bring in
 * AGENTs, AGENTs invite nobody. Accepting checks it again against the inviter as they are then.
 */
export const GRANTABLE_ROLES: Record<Role, readonly InvitableRole[]> = { OWNER: INVITABLE_ROLES, ADMIN: ['AGENT'], AGENT: [] };

export const canGrant = (granter: Role, role: InvitableRole): boolean => GRANTABLE_ROLES[granter].includes(role);

/** Only the OWNER takes ADMIN away: an ADMIN removes AGENTs only. */
export const canRemove = (remover: Role, member: string): boolean =>
  remover === 'OWNER' ? member !== 'OWNER' : remover === 'ADMIN' && member === 'AGENT';

const invitableRole = z.enum(INVITABLE_ROLES, { error: 'Choose a role: Admin or Agent' });

export const InvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(INVITABLE_ROLES),
  invitedBy: z.object({ id: z.string(), name: z.string() }),
  expiresAt: z.string(),
  createdAt: z.string(),
  /** True once expiresAt has passed: the link no longer works, a resend makes a new one. */
  expired: z.boolean(),
});
export type Invitation = z.infer<typeof InvitationSchema>;

/** What the public accept page shows about an invitation. */
export const InvitationPreviewSchema = z.object({
  companyName: z.string(),
  email: z.string(),
  role: z.enum(INVITABLE_ROLES),
  invitedBy: z.object({ name: z.string() }),
  expiresAt: z.string(),
});
export type InvitationPreview = z.infer<typeof InvitationPreviewSchema>;

export const createInvitation = httpContract({
  method: 'POST',
  path: '/api/v1/invitations',
  auth: 'user',
  roles: MANAGERS,
  body: z.object({ email, role: invitableRole }),
  response: z.object({ invitation: InvitationSchema }),
});

export const listInvitations = httpContract({
  method: 'GET',
  path: '/api/v1/invitations',
  auth: 'user',
  response: z.object({ invitations: z.array(InvitationSchema) }),
});

export const revokeInvitation = httpContract({
  method: 'DELETE',
  path: '/api/v1/invitations/{id}',
  auth: 'user',
  roles: MANAGERS,
  response: z.object({ invitation: InvitationSchema }),
});

export const resendInvitation = httpContract({
  method: 'POST',
  path: '/api/v1/invitations/{id}/resend',
  auth: 'user',
  roles: MANAGERS,
  response: z.object({ invitation: InvitationSchema }),
});

/**
 * A POST with the token in the body, so no CloudFront log or browser history holds it; the
 * earlier GET /api/v1/invitations/accept?token= is gone and answers 405.
 */
export const previewInvitation = httpContract({
  method: 'POST',
  path: '/api/v1/invitations/preview',
  auth: 'public',
  body: z.object({ token: opaqueToken('Invitation token') }),
  response: z.object({ invitation: InvitationPreviewSchema }),
});

export const acceptInvitation = httpContract({
  method: 'POST',
  path: '/api/v1/invitations/accept',
  auth: 'public',
  body: z.object({ token: opaqueToken('Invitation token'), name: requiredText('Full name', 120), password: newPassword }),
  response: z.object({ user: UserSchema, company: CompanySchema, tokens: TokensSchema }),
});

/**
 * The body is optional: without one (or `reassignTo` null) the member's conversations become
 * unassigned; with a member's id they go to that member. The answer says how many moved, and
 * `complete` false when the request's time ran out first: sending it again goes on where it
 * stopped (docs/product.md: Removed members).
 */
export const removeUser = httpContract({
  method: 'DELETE',
  path: '/api/v1/users/{id}',
  auth: 'user',
  roles: MANAGERS,
  body: z.object({
    reassignTo: z.optional(
      z.nullable(
        z
          .string({ error: 'reassignTo must be a user id or null' })
          .check(z.minLength(1, 'reassignTo must be a user id or null'), z.maxLength(100, 'reassignTo is too long')),
      ),
    ),
  }),
  response: z.object({
    user: z.object({ id: z.string() }),
    conversations: z.object({ moved: z.number(), complete: z.boolean() }),
  }),
});

export const updateUserRole = httpContract({
  method: 'PATCH',
  path: '/api/v1/users/{id}',
  auth: 'user',
  roles: ['OWNER'],
  body: z.object({ role: invitableRole }),
  response: z.object({ user: z.object({ id: z.string(), role: z.enum(INVITABLE_ROLES) }) }),
});
