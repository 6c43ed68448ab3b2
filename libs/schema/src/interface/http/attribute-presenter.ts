import { Injectable } from '@nestjs/common';
import type { Attribute } from '../../domain/attribute';
import { ObjectDirectory } from '../../application/object.directory';
import { AttributeDirectory } from '../../application/attribute.directory';
import { type AttributeResponse, toAttributeResponse } from './attribute.responses';

/** Renders attributes with their paired reverse attribute (`relationship`) resolved. */
@Injectable()
export class AttributePresenter {
  constructor(
    private readonly attributes: AttributeDirectory,
    private readonly objects: ObjectDirectory,
  ) {}

  async present(attributes: readonly Attribute[]): Promise<AttributeResponse[]> {
    const paired = attributes.filter((a) => a.relationshipAttributeId);
    if (paired.length === 0) return attributes.map((a) => toAttributeResponse(a));
    const workspaceId = attributes[0].workspaceId;
    const [reverses, slugById] = await Promise.all([
      Promise.all(paired.map((a) => this.attributes.findById(workspaceId, a.relationshipAttributeId!))),
      this.objects.slugsById(workspaceId),
    ]);
    const reverseById = new Map(reverses.filter((r): r is Attribute => r !== null).map((r) => [r.id, r]));
    return attributes.map((attribute) => {
      const reverse = attribute.relationshipAttributeId ? reverseById.get(attribute.relationshipAttributeId) : undefined;
      return toAttributeResponse(attribute, reverse ? { attribute: reverse, objectSlug: slugById.get(reverse.containerId) ?? reverse.containerId } : null);
    });
  }

  async presentOne(attribute: Attribute): Promise<AttributeResponse> {
    return (await this.present([attribute]))[0];
  }
}
