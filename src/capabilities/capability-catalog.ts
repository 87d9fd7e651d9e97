import { Injectable, Logger, OnApplicationBootstrap, Provider } from '@nestjs/common';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import type { PolicySubject } from '../governance/access-policy';
import { CapabilityContext, CapabilityDefinition, Door } from './capability';

/** A feature's capabilities, as a provider of its module: the catalog finds every bundle at start-up. */
export class CapabilityBundle {
  constructor(readonly definitions: readonly CapabilityDefinition[]) {}
}

/** Lists a feature's capabilities in its module's `providers`. */
export function capabilityBundle(feature: string, definitions: readonly CapabilityDefinition[]): Provider {
  return { provide: `agentRetrieval:capabilities:${feature}`, useValue: new CapabilityBundle(definitions) };
}

/** A catalog entry with its service resolved: ready to run. */
export interface Capability {
  readonly definition: CapabilityDefinition;
  readonly name: string;
  /** What the access policy decides on. */
  readonly subject: PolicySubject;
  run(input: object, context: CapabilityContext): Promise<unknown>;
}

/**
 * Every capability of the application, in a fixed order (feature modules in import order, each bundle in
 * its own order), built once at start-up: each door looks a capability up by name in a map, so the work
 * of a call never grows with the size of the catalog.
 */
@Injectable()
export class CapabilityCatalog implements OnApplicationBootstrap {
  private readonly logger = new Logger('CapabilityCatalog');
  private byName?: Map<string, Capability>;
  private ordered: Capability[] = [];
  private readonly byDoor = new Map<Door, Capability[]>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly moduleRef: ModuleRef,
  ) {}

  onApplicationBootstrap(): void {
    this.build();
  }

  get(name: string): Capability | undefined {
    return this.build().get(name);
  }

  /** Every capability, or those a door offers, in catalog order. */
  list(door?: Door): readonly Capability[] {
    this.build();
    if (!door) return this.ordered;
    let offered = this.byDoor.get(door);
    if (!offered) {
      offered = this.ordered.filter((capability) => capability.definition.doors.includes(door));
      this.byDoor.set(door, offered);
    }
    return offered;
  }

  private build(): Map<string, Capability> {
    if (this.byName) return this.byName;
    const byName = new Map<string, Capability>();
    for (const wrapper of this.discovery.getProviders()) {
      if (!(wrapper.instance instanceof CapabilityBundle)) continue;
      for (const definition of wrapper.instance.definitions) {
        if (byName.has(definition.name)) throw new Error(`capability "${definition.name}" is defined twice`);
        byName.set(definition.name, this.bind(definition));
      }
    }
    this.byName = byName;
    this.ordered = [...byName.values()];
    this.logger.log(`${this.ordered.length} capabilities: ${this.ordered.map((entry) => entry.name).join(', ')}`);
    return byName;
  }

  private bind(definition: CapabilityDefinition): Capability {
    return bindCapability(definition, this.moduleRef.get(definition.service, { strict: false }));
  }
}

/** A definition with its service: a capability ready to run (operator tools are bound this way too). */
export function bindCapability(definition: CapabilityDefinition, service: unknown, operator = false): Capability {
  return {
    definition,
    name: definition.name,
    subject: { name: definition.name, readOnly: definition.annotations.readOnly, operator },
    run: (input, context) => definition.run(service, input, context),
  };
}
