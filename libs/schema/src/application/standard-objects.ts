import { newId } from '@workbase/shared/kernel';
import type { NewAttribute } from '../domain/attribute';
import type { AttributeType } from '../domain/attribute-type';

/** An attribute of a standard object, as every new workspace receives it. */
export interface StandardAttribute {
  readonly slug: string;
  readonly title: string;
  readonly type: AttributeType;
  readonly multi?: boolean;
  readonly unique?: boolean;
  readonly required?: boolean;
  readonly writable?: boolean;
  readonly options?: readonly string[];
  readonly statuses?: readonly string[];
  readonly currency?: string;
  /** record-reference: the object it points to and the slug of the paired attribute there. */
  readonly references?: { readonly object: string; readonly reverse: string };
  readonly defaultCurrentUser?: boolean;
}

export interface StandardObject {
  readonly slug: string;
  readonly singular: string;
  readonly plural: string;
  readonly attributes: readonly StandardAttribute[];
}

const social = (slug: string, title: string): StandardAttribute => ({ slug, title, type: 'text' });
/** The social profile attributes of people and companies, in display order. */
const socialProfiles = [
  social('angellist', 'AngelList'),
  social('facebook', 'Facebook'),
  social('instagram', 'Instagram'),
  social('linkedin', 'LinkedIn'),
  social('twitter', 'Twitter'),
];
const interaction = (slug: string, title: string): StandardAttribute => ({ slug, title, type: 'interaction', writable: false });
const interactions = [
  interaction('first_email_interaction', 'First email interaction'),
  interaction('last_email_interaction', 'Last email interaction'),
  interaction('first_calendar_interaction', 'First calendar interaction'),
  interaction('last_calendar_interaction', 'Last calendar interaction'),
  interaction('next_calendar_interaction', 'Next calendar interaction'),
];

/**
 * The standard objects of the reference API with their system attributes (record_id,
 * created_at and created_by are added to every object). Relationships are declared on both sides.
 */
export const STANDARD_OBJECTS: readonly StandardObject[] = [
  {
    slug: 'people',
    singular: 'Person',
    plural: 'People',
    attributes: [
      { slug: 'name', title: 'Name', type: 'personal-name' },
      { slug: 'email_addresses', title: 'Email addresses', type: 'email-address', multi: true, unique: true },
      { slug: 'description', title: 'Description', type: 'text' },
      { slug: 'company', title: 'Company', type: 'record-reference', references: { object: 'companies', reverse: 'team' } },
      { slug: 'job_title', title: 'Job title', type: 'text' },
      { slug: 'phone_numbers', title: 'Phone numbers', type: 'phone-number', multi: true },
      { slug: 'primary_location', title: 'Primary location', type: 'location' },
      ...socialProfiles,
      { slug: 'associated_deals', title: 'Associated deals', type: 'record-reference', multi: true, references: { object: 'deals', reverse: 'associated_people' } },
      { slug: 'associated_users', title: 'Associated users', type: 'record-reference', multi: true, references: { object: 'users', reverse: 'person' } },
      ...interactions,
    ],
  },
  {
    slug: 'companies',
    singular: 'Company',
    plural: 'Companies',
    attributes: [
      { slug: 'name', title: 'Name', type: 'text' },
      { slug: 'domains', title: 'Domains', type: 'domain', multi: true, unique: true },
      { slug: 'description', title: 'Description', type: 'text' },
      { slug: 'team', title: 'Team', type: 'record-reference', multi: true, references: { object: 'people', reverse: 'company' } },
      {
        slug: 'categories',
        title: 'Categories',
        type: 'select',
        multi: true,
        options: ['B2B', 'B2C', 'E-commerce', 'Enterprise', 'Financial Services', 'Healthcare', 'Marketplace', 'SaaS', 'Software', 'Technology'],
      },
      { slug: 'primary_location', title: 'Primary location', type: 'location' },
      ...socialProfiles,
      { slug: 'estimated_arr_usd', title: 'Estimated ARR', type: 'select', options: ['$0-$1M', '$1M-$10M', '$10M-$50M', '$50M-$100M', '$100M-$250M', '$250M-$500M', '$500M-$1B', '$1B+'] },
      { slug: 'employee_range', title: 'Employee range', type: 'select', options: ['1-10', '11-50', '51-250', '251-1K', '1K-5K', '5K-10K', '10K-50K', '50K-100K', '100K+'] },
      { slug: 'funding_raised_usd', title: 'Funding raised', type: 'currency', currency: 'USD' },
      { slug: 'strongest_connection_strength', title: 'Strongest connection strength', type: 'select', options: ['Very weak', 'Weak', 'Good', 'Strong', 'Very strong'] },
      { slug: 'associated_deals', title: 'Associated deals', type: 'record-reference', multi: true, references: { object: 'deals', reverse: 'associated_company' } },
      { slug: 'associated_workspaces', title: 'Associated workspaces', type: 'record-reference', multi: true, references: { object: 'workspaces', reverse: 'company' } },
      ...interactions,
    ],
  },
  {
    slug: 'deals',
    singular: 'Deal',
    plural: 'Deals',
    attributes: [
      { slug: 'name', title: 'Deal name', type: 'text', required: true },
      { slug: 'stage', title: 'Deal stage', type: 'status', required: true, statuses: ['Lead', 'In Progress', 'Won 🎉', 'Lost'] },
      { slug: 'owner', title: 'Deal owner', type: 'actor-reference', required: true, defaultCurrentUser: true },
      { slug: 'value', title: 'Deal value', type: 'currency', currency: 'USD' },
      { slug: 'associated_people', title: 'Associated people', type: 'record-reference', multi: true, references: { object: 'people', reverse: 'associated_deals' } },
      { slug: 'associated_company', title: 'Associated company', type: 'record-reference', references: { object: 'companies', reverse: 'associated_deals' } },
    ],
  },
  {
    slug: 'users',
    singular: 'User',
    plural: 'Users',
    attributes: [
      { slug: 'person', title: 'Person', type: 'record-reference', references: { object: 'people', reverse: 'associated_users' } },
      { slug: 'primary_email_address', title: 'Primary email address', type: 'email-address', unique: true },
      { slug: 'user_id', title: 'User ID', type: 'text', unique: true },
      { slug: 'workspace', title: 'Workspace', type: 'record-reference', multi: true, references: { object: 'workspaces', reverse: 'users' } },
    ],
  },
  {
    slug: 'workspaces',
    singular: 'Workspace',
    plural: 'Workspaces',
    attributes: [
      { slug: 'workspace_id', title: 'Workspace ID', type: 'text', unique: true, required: true },
      { slug: 'name', title: 'Name', type: 'text' },
      { slug: 'users', title: 'Users', type: 'record-reference', multi: true, references: { object: 'users', reverse: 'workspace' } },
      { slug: 'company', title: 'Company', type: 'record-reference', references: { object: 'companies', reverse: 'associated_workspaces' } },
      { slug: 'avatar_url', title: 'Avatar URL', type: 'text' },
    ],
  },
];

/** The system attributes of every record, whatever its object. */
export const RECORD_SYSTEM_ATTRIBUTES: readonly StandardAttribute[] = [
  { slug: 'record_id', title: 'Record ID', type: 'text', writable: false },
  { slug: 'created_at', title: 'Created at', type: 'timestamp', writable: false },
  { slug: 'created_by', title: 'Created by', type: 'actor-reference', writable: false },
  { slug: 'updated_at', title: 'Updated at', type: 'timestamp', writable: false },
];

/** The system attributes of every list entry (its id, creation and creator are the entry's own fields). */
export const ENTRY_SYSTEM_ATTRIBUTES: readonly StandardAttribute[] = [{ slug: 'updated_at', title: 'Updated at', type: 'timestamp', writable: false }];

/** The rows of a new object's or list's system attributes, in the given order from position 0. */
export function systemAttributeRows(workspaceId: string, containerId: string, containerKind: 'object' | 'list', attributes: readonly StandardAttribute[]): NewAttribute[] {
  return attributes.map((attribute, position) => ({
    id: newId(),
    workspaceId,
    containerId,
    containerKind,
    slug: attribute.slug,
    title: attribute.title,
    description: null,
    type: attribute.type,
    isSystem: true,
    isWritable: false,
    isRequired: false,
    isUnique: false,
    isMultiselect: false,
    isArchived: false,
    isInherited: false,
    defaultValue: null,
    config: {},
    relationshipAttributeId: null,
    position,
  }));
}
