import { Controller, Get, Inject, Param, Query, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { ForbiddenError, NotFoundError } from '@workbase/shared/kernel';
import { SCHEMAS, type SchemaDefinition } from '../../domain/schemas';
import { SCIM_URN } from '../../domain/urns';
import { MAX_COUNT } from './scim-list.requests';
import { ScimRead } from './scim-docs';
import { ScimJsonInterceptor } from './scim-json.interceptor';
import { ScimListResponse, toListResponse } from './scim.responses';

const RESOURCE_TYPES = [
  {
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'Workspace members and pending invites',
    schema: SCIM_URN.user,
    schemaExtensions: [{ schema: SCIM_URN.enterpriseUser, required: false }],
  },
  { id: 'Group', name: 'Group', endpoint: '/Groups', description: 'Workspace teams', schema: SCIM_URN.group },
];

const FILTER_REFUSED = { name: 'filter', required: false, description: 'Not supported here: any filter is answered with 403 (RFC 7644 §4)' };

/** RFC 7644 §4: discovery endpoints take no filter; one is refused so a client never mistakes the answer for a filtered one. */
function refuseFilter(filter: unknown): void {
  if (filter !== undefined) throw new ForbiddenError('Discovery endpoints do not support filtering (RFC 7644 §4).');
}

/** RFC 7644 §4: what this service provider supports, for Okta's and Entra's schema discovery. */
const META_SCHEMA = { type: 'object', properties: { resourceType: { type: 'string' }, location: { type: 'string', format: 'uri' } } };

const SCHEMA_RESOURCE_SCHEMA = {
  type: 'object',
  properties: {
    schemas: { type: 'array', items: { type: 'string' }, example: ['urn:ietf:params:scim:schemas:core:2.0:Schema'] },
    id: { type: 'string', example: SCIM_URN.user },
    name: { type: 'string', example: 'User' },
    description: { type: 'string' },
    attributes: { type: 'array', items: { type: 'object', description: 'name, type, multiValued, description, required, mutability, returned, uniqueness, canonicalValues, subAttributes' } },
    meta: META_SCHEMA,
  },
};

const SERVICE_PROVIDER_CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    schemas: { type: 'array', items: { type: 'string' } },
    documentationUri: { type: 'string', format: 'uri' },
    patch: { type: 'object', properties: { supported: { type: 'boolean', example: true } } },
    bulk: { type: 'object', properties: { supported: { type: 'boolean', example: false }, maxOperations: { type: 'integer' }, maxPayloadSize: { type: 'integer' } } },
    filter: { type: 'object', properties: { supported: { type: 'boolean', example: true }, maxResults: { type: 'integer', example: 100 } } },
    changePassword: { type: 'object', properties: { supported: { type: 'boolean' } } },
    sort: { type: 'object', properties: { supported: { type: 'boolean' } } },
    etag: { type: 'object', properties: { supported: { type: 'boolean' } } },
    authenticationSchemes: { type: 'array', items: { type: 'object', properties: { type: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' }, primary: { type: 'boolean' } } } },
    meta: META_SCHEMA,
  },
};

const RESOURCE_TYPE_SCHEMA = {
  type: 'object',
  properties: {
    schemas: { type: 'array', items: { type: 'string' } },
    id: { type: 'string', example: 'User' },
    name: { type: 'string', example: 'User' },
    endpoint: { type: 'string', example: '/Users' },
    schema: { type: 'string', example: SCIM_URN.user },
    meta: META_SCHEMA,
  },
};

@ApiTags('SCIM')
@Controller('scim/v2')
@UseInterceptors(ScimJsonInterceptor)
export class ScimDiscoveryController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get('Schemas')
  @ScimRead()
  @ApiQuery(FILTER_REFUSED)
  @ApiOperation({ summary: 'List the schemas', description: 'A ListResponse of the User, EnterpriseUser and Group schemas (totalResults 3).' })
  @ApiOkResponse({ type: ScimListResponse })
  schemas(@Query('filter') filter?: unknown): ScimListResponse {
    refuseFilter(filter);
    const resources = SCHEMAS.map((schema) => this.schemaResource(schema));
    return toListResponse(resources, resources.length, 1);
  }

  @Get('Schemas/:schema_urn')
  @ScimRead(404)
  @ApiQuery(FILTER_REFUSED)
  @ApiOperation({ summary: 'Get one schema by its URN' })
  @ApiParam({ name: 'schema_urn', example: SCIM_URN.user })
  @ApiOkResponse({ description: 'The schema resource (RFC 7643 §7)', schema: SCHEMA_RESOURCE_SCHEMA })
  schema(@Param('schema_urn') urn: string, @Query('filter') filter?: unknown): Record<string, unknown> {
    refuseFilter(filter);
    const schema = SCHEMAS.find((candidate) => candidate.id.toLowerCase() === urn.toLowerCase());
    if (!schema) throw new NotFoundError(`Schema "${urn}" not found.`);
    return this.schemaResource(schema);
  }

  @Get('ServiceProviderConfig')
  @ScimRead()
  @ApiQuery(FILTER_REFUSED)
  @ApiOperation({ summary: 'Service provider configuration' })
  @ApiOkResponse({ description: 'What this server supports (RFC 7643 §5)', schema: SERVICE_PROVIDER_CONFIG_SCHEMA })
  serviceProviderConfig(@Query('filter') filter?: unknown): Record<string, unknown> {
    refuseFilter(filter);
    return {
      schemas: [SCIM_URN.serviceProviderConfig],
      documentationUri: `${this.config.baseUrl}/docs`,
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: MAX_COUNT },
      changePassword: { supported: false },
      sort: { supported: false },
      // Weak ETags equal to meta.version on every User and Group; If-Match (412) on writes, If-None-Match (304) on reads.
      etag: { supported: true },
      authenticationSchemes: [
        { type: 'oauthbearertoken', name: 'OAuth Bearer Token', description: 'A workspace API token or an OAuth access token with the user_management scopes', primary: true },
        { type: 'httpbasic', name: 'HTTP Basic', description: 'The token as username, empty password' },
      ],
      meta: { resourceType: 'ServiceProviderConfig', location: `${this.config.baseUrl}/scim/v2/ServiceProviderConfig` },
    };
  }

  @Get('ResourceTypes')
  @ScimRead()
  @ApiQuery(FILTER_REFUSED)
  @ApiOperation({ summary: 'List resource types (User, Group)' })
  @ApiOkResponse({ type: ScimListResponse })
  resourceTypes(@Query('filter') filter?: unknown): ScimListResponse {
    refuseFilter(filter);
    const resources = RESOURCE_TYPES.map((type) => this.resourceType(type));
    return toListResponse(resources, resources.length, 1);
  }

  @Get('ResourceTypes/:resource_type')
  @ScimRead(404)
  @ApiQuery(FILTER_REFUSED)
  @ApiOperation({ summary: 'Get one resource type' })
  @ApiParam({ name: 'resource_type', example: 'User' })
  @ApiOkResponse({ description: 'The resource type (RFC 7643 §6)', schema: RESOURCE_TYPE_SCHEMA })
  resourceTypeById(@Param('resource_type') id: string, @Query('filter') filter?: unknown): Record<string, unknown> {
    refuseFilter(filter);
    const type = RESOURCE_TYPES.find((candidate) => candidate.id.toLowerCase() === id.toLowerCase());
    if (!type) throw new NotFoundError(`Resource type "${id}" not found.`);
    return this.resourceType(type);
  }

  private schemaResource(schema: SchemaDefinition): Record<string, unknown> {
    return {
      schemas: [SCIM_URN.schema],
      id: schema.id,
      name: schema.name,
      description: schema.description,
      attributes: schema.attributes,
      meta: { resourceType: 'Schema', location: `${this.config.baseUrl}/scim/v2/Schemas/${schema.id}` },
    };
  }

  private resourceType(type: (typeof RESOURCE_TYPES)[number]): Record<string, unknown> {
    return {
      schemas: [SCIM_URN.resourceType],
      ...type,
      meta: { resourceType: 'ResourceType', location: `${this.config.baseUrl}/scim/v2/ResourceTypes/${type.id}` },
    };
  }
}

