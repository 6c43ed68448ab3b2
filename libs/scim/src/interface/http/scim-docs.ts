import { applyDecorators } from '@nestjs/common';
import { ApiConsumes, ApiExtraModels, ApiProduces, ApiResponse } from '@nestjs/swagger';
import { RequireAdminMember, RequireScopes } from '@workbase/shared/http';
import { SCOPES } from '@workbase/shared/kernel';
import { ScimErrorResponse } from './scim.responses';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request, in the SCIM error schema; `scimType` says why (invalidFilter, invalidSyntax, invalidPath, noTarget, invalidValue, mutability)',
  401: 'Missing, invalid, revoked or expired token (SCIM error schema)',
  403: 'The token lacks the user_management scope this operation needs; for a write, it is neither a service token nor granted by an admin member, or it would raise its own member; or a discovery endpoint was given a filter (SCIM error schema)',
  412: '`If-Match` names another version than meta.version: the resource has changed, nothing was written (SCIM error schema)',
  404: 'No such resource in this workspace (SCIM error schema)',
  409: 'userName or displayName already taken (`scimType: uniqueness`)',
  413: 'Request body larger than the service accepts (SCIM error schema)',
};

/** A SCIM read: the `user_management:read` scope, and the SCIM media types and errors (401, 403 and these). */
export function ScimRead(...errors: number[]): MethodDecorator {
  return applyDecorators(RequireScopes(SCOPES.userManagementRead), ScimOperation(...errors));
}

/**
 * A SCIM write: the `user_management:read-write` scope, by an admin member or a service token, and the
 * SCIM media types and errors (401, 403 and these).
 */
export function ScimWrite(...errors: number[]): MethodDecorator {
  return applyDecorators(RequireScopes(SCOPES.userManagementReadWrite), RequireAdminMember(), ScimOperation(...errors));
}

/**
 * The SCIM media types and error responses of an operation. It applies after `RequireScopes` so
 * that its 401/403 entries (SCIM error schema) replace the REST ones that decorator documents.
 */
function ScimOperation(...errors: number[]): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(ScimErrorResponse),
    ApiProduces('application/scim+json'),
    ApiConsumes('application/scim+json', 'application/json'),
    ...[401, 403, ...errors].map((status) =>
      ApiResponse({ status, description: DESCRIPTIONS[status], type: ScimErrorResponse, content: { 'application/scim+json': { schema: { $ref: '#/components/schemas/ScimErrorResponse' } } } }),
    ),
  );
}

/** A read's 304: `If-None-Match` named the current version (`meta.version`, the ETag). */
export function ApiNotModifiedResponse(): MethodDecorator {
  return ApiResponse({ status: 304, description: '`If-None-Match` names the current version (`*`, or a list of tags compared weakly): no body, the ETag again' });
}
