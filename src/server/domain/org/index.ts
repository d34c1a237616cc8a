import type { CoreServices } from '../../core/services.js';
import type { Runtime } from '../../runtime/index.js';
import { OrgTreeService } from './org-tree.js';

/**
 * Installs the real organisation tree (data scope subtrees, the tree endpoint) when the deployment has
 * the `org` module; kept fresh by the runtime's write events.
 */
export function installOrgTree(services: CoreServices, runtime: Runtime): void {
  if (!runtime.module('org')) return;
  const tree = new OrgTreeService(services.database);
  services.orgTree = tree;
  runtime.events.on('write', (e) => {
    if (e.module === 'org') tree.invalidate();
  });
}

export function orgTreeOf(services: CoreServices): OrgTreeService | undefined {
  return services.orgTree instanceof OrgTreeService ? services.orgTree : undefined;
}
