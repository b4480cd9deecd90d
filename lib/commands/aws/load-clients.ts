import type { AwsClients } from './clients';

/**
 * The real AWS clients, loaded when first asked for: the SDK is most of a command's start-up,
 * and a command refusing a bad argument needs none of it. Run functions take this as their
 * default; a test passes its own clients instead.
 */
export const loadAwsClients = (): AwsClients => (require('./clients') as typeof import('./clients')).AWS_CLIENTS;
