/*
 * The outputs the FOLIO data stack declares, by the name the code uses for them: the stack creates
 * exactly these keys and every command reads them from here, so a renamed output is a compile
 * error rather than a command that fails only on AWS (test/lib/stack-outputs.test.ts
 * checks every key a command reads against each family's synthesized templates).
 */

/** The FOLIO stack's outputs. */
export const FOLIO_OUTPUTS = {
  phase: 'Phase',
  vpcId: 'VpcId',
  primaryEndpoint: 'PrimaryEndpoint',
  offloadEndpoint: 'OffloadEndpoint',
  primaryReaderEndpoint: 'PrimaryReaderEndpoint',
  offloadReaderEndpoint: 'OffloadReaderEndpoint',
  moduleZoneId: 'ModuleZoneId',
  adminSecretName: 'AdminSecretName',
  routingParameterName: 'RoutingParameterName',
  moverCluster: 'MoverCluster',
  moverTaskDefinition: 'MoverTaskDefinition',
  moverSecurityGroupId: 'MoverSecurityGroupId',
  moverSubnets: 'MoverSubnets',
  moverLogGroup: 'MoverLogGroup',
} as const;
